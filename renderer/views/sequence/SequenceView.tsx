/**
 * The sequence view: Client, Inspector and Agent swimlanes with one arrow per frame, markers for
 * connection breaks, agent restarts and faults, idle gaps compressed. Only the rows on screen (plus
 * a margin) are in the DOM, so traces of many thousands of frames scroll smoothly. With the
 * shared filter (renderer/model/filter/record-filter.ts) the rows it matches are marked, or drawn alone,
 * and a submission picker jumps to any submission. `scale` (Large text) draws the whole diagram
 * bigger, text and arrows alike: it is laid out in diagram units and shown `scale` times as large.
 */
import {
  type ReactNode,
  type UIEvent,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { Submission, TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import { timesUnknown } from "../../../shared/trace/interchange/describe.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { EmptyState } from "../../kit/EmptyState.js";
import type { RecordMatch } from "../../model/filter/record-filter.js";
import { HEADER_HEIGHT, laneHeader, MIN_WIDTH } from "./lanes.js";
import { SceneItemEl, ShapeEl } from "./SceneShapes.js";
import { sequenceSvg, svgExportRange } from "./sequence-export.js";
import { documentPalette, downloadBlob, svgToPng } from "./sequence-files.js";
import {
  layoutSequence,
  type PlacedRow,
  rowIndexAt,
  rowIndexOfSeq,
  type SequenceLayout,
} from "./sequence-layout.js";
import { buildScene } from "./sequence-scene.js";
import "./sequence.css";
import { visibleText } from "../../model/text/visible-text.js";

/** Rows drawn above and below the screen. */
const OVERSCAN = 8;

/** Props of `SequenceView`. */
export interface SequenceViewProps {
  readonly model: TimelineModel;
  readonly records: readonly TraceRecord[];
  onSelectSeq(seq: number): void;
  readonly selectedSeq?: number | null;
  /** The shared filter's verdict per record; absent or inactive: no filter. */
  readonly match?: RecordMatch | null;
  /** Draw only the rows the filter matches (otherwise matches are marked). */
  readonly onlyMatches?: boolean;
  onOnlyMatchesChange?(on: boolean): void;
  /** Shown above the diagram (the app's shared search box). */
  readonly filterBar?: ReactNode;
  /** A submission was picked in "Jump to submission" (default: select its first request). */
  onJumpToSubmission?(submission: Submission, seq: number): void;
  /** Screen px per diagram unit (1, or the Large text factor). */
  readonly scale?: number;
}

/** How many submissions the picker lists (the filter narrows a long trace's list). */
const MAX_PICKER = 500;

/** Whether a row is one the filter matches (a burst: any of its frames; an idle gap never). */
function rowMatches(row: PlacedRow, mask: Uint8Array): boolean {
  const it = row.item;
  if (it.kind === "gap") return false;
  if (it.kind === "marker") return mask[it.seq] === 1;
  for (let seq = it.seq; seq <= it.lastSeq; seq++) if (mask[seq] === 1) return true;
  return false;
}

/** The layout with only the matching rows, stacked again (idle gaps dropped: time between them is not idle). */
function onlyMatching(layout: SequenceLayout, mask: Uint8Array): SequenceLayout {
  const rows: PlacedRow[] = [];
  let y = 0;
  let frames = 0;
  for (const row of layout.rows) {
    if (!rowMatches(row, mask)) continue;
    rows.push({ ...row, y });
    y += row.height;
    if (row.item.kind === "arrow") frames += row.item.count;
  }
  return { ...layout, rows, height: y, frames };
}

/** The swimlane diagram of a trace, with Export SVG / Export PNG in its own header. */
export function SequenceView({
  model,
  records,
  onSelectSeq,
  selectedSeq = null,
  match = null,
  onlyMatches = false,
  onOnlyMatchesChange,
  filterBar,
  onJumpToSubmission,
  scale = 1,
}: SequenceViewProps) {
  // A live trace re-lays out on every batch: deferred, so typing and scrolling stay responsive.
  const deferredRecords = useDeferredValue(records);
  const deferredModel = useDeferredValue(model);
  const fullLayout = useMemo(() => {
    const l = layoutSequence(deferredRecords, deferredModel);
    return timesUnknown(deferredModel.header?.imported) ? { ...l, startTs: null } : l;
  }, [deferredRecords, deferredModel]);
  const deferredMatch = useDeferredValue(match);
  const filtering = deferredMatch?.active === true;
  const showOnly = filtering && onlyMatches;
  const layout = useMemo(
    () => (showOnly && deferredMatch ? onlyMatching(fullLayout, deferredMatch.mask) : fullLayout),
    [fullLayout, showOnly, deferredMatch],
  );
  // Indexes (in `layout`) of the rows the filter matches, for the count, the marks and next/previous.
  const matchRows = useMemo(() => {
    if (!filtering || !deferredMatch) return [];
    if (showOnly) return layout.rows.map((_, i) => i);
    const out: number[] = [];
    layout.rows.forEach((row, i) => {
      if (rowMatches(row, deferredMatch.mask)) out.push(i);
    });
    return out;
  }, [layout, filtering, showOnly, deferredMatch]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const lanesRef = useRef<HTMLDivElement>(null);
  const previousHeight = useRef(0);
  const [view, setView] = useState({ top: 0, height: 600, width: 960 });
  const [status, setStatus] = useState("");

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () =>
      setView((v) => ({ ...v, top: el.scrollTop, height: el.clientHeight, width: el.clientWidth }));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Follow a live trace's tail while the view was scrolled to the bottom; a trace that arrives whole starts at the top.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = previousHeight.current;
    previousHeight.current = layout.height * scale;
    if (el && before > 0 && el.scrollTop + el.clientHeight >= before - 4)
      el.scrollTop = layout.height * scale;
  }, [layout.height, scale]);

  // Bring an externally selected frame into view (when the selection changes, not on every new frame).
  // biome-ignore lint/correctness/useExhaustiveDependencies: layout is read, not watched
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || selectedSeq === null) return;
    const row = layout.rows[rowIndexOfSeq(layout, selectedSeq)];
    const [y, h] = row ? [row.y * scale, row.height * scale] : [0, 0];
    if (row && (y < el.scrollTop || y + h > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, y - el.clientHeight / 3);
    }
  }, [selectedSeq]);

  /** Scrolls a row of the current layout to a third of the way down. */
  const scrollToRow = (index: number) => {
    const el = scrollRef.current;
    const row = layout.rows[index];
    if (!el || !row) return;
    el.scrollTop = Math.max(0, row.y - el.clientHeight / 3);
    setView((v) => ({ ...v, top: el.scrollTop }));
  };
  const goToSeq = (seq: number, what: string) => {
    const index = rowIndexOfSeq(layout, seq);
    if (index < 0) {
      setStatus(`${what} (frame #${seq}) is hidden by the filter: untick "Only matching rows" to see it`);
      return false;
    }
    scrollToRow(index);
    setStatus(`${what}: frame #${seq}`);
    return true;
  };

  const submissions = model.submissions;
  const pickable = useMemo(() => {
    const out: { sub: Submission; number: number; seq: number }[] = [];
    let total = 0;
    submissions.forEach((sub, i) => {
      const seq = sub.attempts[0]?.requestSeq;
      if (seq === undefined) return;
      if (filtering && deferredMatch && deferredMatch.mask[seq] !== 1) return;
      total++;
      if (out.length < MAX_PICKER) out.push({ sub, number: i + 1, seq });
    });
    return { list: out, total };
  }, [submissions, filtering, deferredMatch]);
  const jump = (value: string) => {
    const pick = pickable.list.find((p) => String(p.number) === value);
    if (!pick) return;
    if (onJumpToSubmission) onJumpToSubmission(pick.sub, pick.seq);
    else onSelectSeq(pick.seq);
    goToSeq(pick.seq, `Submission ${pick.number}`);
  };
  const stepMatch = (dir: 1 | -1) => {
    if (matchRows.length === 0) return;
    const here = lastSelectedIndex(dir);
    const next =
      dir === 1
        ? (matchRows.find((i) => i > here) ?? (matchRows[0] as number))
        : (matchRows.findLast((i) => i < here) ?? (matchRows.at(-1) as number));
    const item = layout.rows[next]?.item;
    if (item && item.kind !== "gap") onSelectSeq(item.seq);
    scrollToRow(next);
    setStatus(`Match ${matchRows.indexOf(next) + 1} of ${matchRows.length}`);
  };
  /** The selected row's index, or the screen's edge when nothing selected is in this layout. */
  const lastSelectedIndex = (dir: 1 | -1) => {
    const sel = selectedSeq === null ? -1 : rowIndexOfSeq(layout, selectedSeq);
    if (sel >= 0) return sel;
    const el = scrollRef.current;
    const top = el ? el.scrollTop : 0;
    const first = rowIndexAt(layout, top);
    return dir === 1 ? first - 1 : first + 1;
  };

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    // the lane titles move sideways with the diagram (wider than its pane with large text)
    if (lanesRef.current) lanesRef.current.scrollLeft = el.scrollLeft;
    setView((v) => (v.top === el.scrollTop ? v : { ...v, top: el.scrollTop }));
  }, []);

  const rowCount = layout.rows.length;
  const firstOnScreen = Math.max(0, rowIndexAt(layout, view.top / scale));
  const lastOnScreen = Math.max(0, rowIndexAt(layout, (view.top + view.height - 1) / scale));
  const from = Math.max(0, firstOnScreen - OVERSCAN);
  const to = Math.min(rowCount - 1, lastOnScreen + OVERSCAN);
  const width = Math.max(Math.floor(view.width / scale), MIN_WIDTH);
  const scene = useMemo(
    () => buildScene(layout, { width, from, to, selectedSeq }),
    [layout, width, from, to, selectedSeq],
  );
  // Marks behind the matching rows on screen (all rows match while only matches are drawn).
  const marks = useMemo(() => {
    if (!filtering || showOnly || !deferredMatch) return [];
    const out: PlacedRow[] = [];
    for (let i = from; i <= to; i++) {
      const row = layout.rows[i];
      if (row && rowMatches(row, deferredMatch.mask)) out.push(row);
    }
    return out;
  }, [filtering, showOnly, deferredMatch, layout, from, to]);

  const exportSvg = () => {
    const range = svgExportRange(rowCount, firstOnScreen);
    const { svg } = sequenceSvg(layout, { ...range, width, palette: documentPalette(document), selectedSeq });
    downloadBlob(new Blob([svg], { type: "image/svg+xml" }), "acp-sequence.svg");
    setStatus(`Exported rows ${range.from + 1}–${range.to + 1} as SVG`);
  };
  const exportPng = () => {
    const range = { from: firstOnScreen, to: lastOnScreen };
    const {
      svg,
      width: w,
      height: h,
    } = sequenceSvg(layout, {
      ...range,
      width,
      palette: documentPalette(document),
      selectedSeq,
    });
    svgToPng(svg, w, h).then(
      (png) => {
        downloadBlob(png, "acp-sequence.png");
        setStatus(`Exported rows ${range.from + 1}–${range.to + 1} as PNG`);
      },
      (err: unknown) => setStatus(`PNG export failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  };

  return (
    <section className="seq" aria-label="Sequence diagram">
      {filterBar || filtering ? (
        <div className="seq__filter">
          {filterBar}
          {filtering ? (
            <span className="seq__matches" role="status" aria-label="Sequence matches">
              {showOnly
                ? `only the ${matchRows.length} matching rows of ${fullLayout.rows.length}`
                : `${matchRows.length} of ${fullLayout.rows.length} rows match`}
            </span>
          ) : null}
          {filtering && onOnlyMatchesChange ? (
            <label>
              <input
                type="checkbox"
                checked={onlyMatches}
                onChange={(e) => onOnlyMatchesChange(e.currentTarget.checked)}
              />{" "}
              Only matching rows
            </label>
          ) : null}
          {filtering ? (
            <>
              <button type="button" onClick={() => stepMatch(-1)} disabled={matchRows.length === 0}>
                Previous match
              </button>
              <button type="button" onClick={() => stepMatch(1)} disabled={matchRows.length === 0}>
                Next match
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      <header className="seq__header">
        <h2 className="seq__title">Sequence</h2>
        <span className="seq__range">
          {rowCount === 0
            ? "no rows"
            : `rows ${firstOnScreen + 1}–${lastOnScreen + 1} of ${rowCount} · ${layout.frames} frames`}
        </span>
        <label>
          Jump to submission{" "}
          <select
            className="seq__picker"
            value=""
            onChange={(e) => jump(e.currentTarget.value)}
            disabled={pickable.list.length === 0}
          >
            <option value="">
              {pickable.total === 0
                ? filtering
                  ? "none matches the filter"
                  : "no submissions"
                : `${pickable.total} ${filtering ? "matching " : ""}submission${pickable.total === 1 ? "" : "s"}${pickable.total > pickable.list.length ? ` (first ${pickable.list.length}; narrow the filter)` : ""}`}
            </option>
            {pickable.list.map((p) => (
              <option key={p.number} value={String(p.number)}>
                {visibleText(submissionLabel(p.sub, p.number))}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={selectedSeq === null}
          onClick={() => selectedSeq !== null && goToSeq(selectedSeq, "Selection")}
        >
          Show selection
        </button>
        <button type="button" onClick={exportSvg} disabled={rowCount === 0}>
          Export SVG
        </button>
        <button type="button" onClick={exportPng} disabled={rowCount === 0}>
          Export PNG
        </button>
        <span className="seq__status" role="status">
          {status}
        </span>
      </header>
      <div className="seq__lanes-strip" ref={lanesRef}>
        <svg
          className="seq__lanes"
          width={width * scale}
          height={HEADER_HEIGHT * scale}
          viewBox={`0 0 ${width} ${HEADER_HEIGHT}`}
          role="img"
          aria-label="Lanes: Client, Inspector, Agent"
        >
          {laneHeader(width).map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of shapes, never reordered
            <ShapeEl key={i} shape={s} />
          ))}
        </svg>
      </div>
      <div className="seq__scroll" ref={scrollRef} onScroll={onScroll}>
        {rowCount === 0 ? (
          <EmptyState title="No frames yet">
            <p>Arrows appear here as frames pass the inspector, or when you import a trace file.</p>
          </EmptyState>
        ) : (
          <div className="seq__body" style={{ height: layout.height * scale, width: width * scale }}>
            {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; it carries the group role */}
            <svg
              className="seq__window"
              style={{ top: scene.top * scale }}
              width={width * scale}
              height={(scene.bottom - scene.top) * scale}
              viewBox={`0 ${scene.top} ${width} ${scene.bottom - scene.top}`}
              role="group"
              aria-label="Frames"
            >
              {marks.map((row) => (
                <g key={`m${row.y}`} className="seq-match">
                  <rect x={0} y={row.y} width={width} height={row.height} className="seq-match__band" />
                  <rect x={0} y={row.y} width={4} height={row.height} className="seq-match__edge" />
                </g>
              ))}
              {scene.lanes.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: always the same three lane lines
                <ShapeEl key={i} shape={s} />
              ))}
              {scene.items.map((item) => (
                <SceneItemEl key={item.key} item={item} onSelect={onSelectSeq} />
              ))}
            </svg>
          </div>
        )}
      </div>
    </section>
  );
}

/** "submission 3 · key 5f0c7b1e… · deploy it" for the picker. */
function submissionLabel(sub: Submission, n: number): string {
  const key = sub.key ? `key ${sub.key.slice(0, 8)}${sub.key.length > 8 ? "…" : ""}` : "no key";
  const prompt = sub.promptPreview.length > 40 ? `${sub.promptPreview.slice(0, 40)}…` : sub.promptPreview;
  const attempts = sub.attempts.length === 1 ? "" : ` · ${sub.attempts.length} attempts`;
  return `submission ${n} · ${key}${attempts} · ${prompt}`;
}
