/**
 * The sequence view: Client, Inspector and Agent swimlanes with one arrow per frame, markers for
 * connection breaks, agent restarts and faults, idle gaps compressed. Only the rows on screen (plus
 * a margin) are in the DOM, so traces of many thousands of frames scroll smoothly. `scale` (Large
 * text) draws the whole diagram bigger, text and arrows alike: it is laid out in diagram units and
 * shown `scale` times as large.
 */
import {
  type UIEvent,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { TimelineModel } from "../../shared/analyzer/timeline-model.js";
import { timesUnknown } from "../../shared/trace/interchange/describe.js";
import type { TraceRecord } from "../../shared/trace/record.js";
import { EmptyState } from "../components/EmptyState.js";
import { HEADER_HEIGHT, laneHeader, MIN_WIDTH } from "./lanes.js";
import { SceneItemEl, ShapeEl } from "./SceneShapes.js";
import { sequenceSvg, svgExportRange } from "./sequence-export.js";
import { documentPalette, downloadBlob, svgToPng } from "./sequence-files.js";
import { layoutSequence, rowIndexAt, rowIndexOfSeq } from "./sequence-layout.js";
import { buildScene } from "./sequence-scene.js";
import "./sequence.css";

/** Rows drawn above and below the screen. */
const OVERSCAN = 8;

/** Props of `SequenceView`. */
export interface SequenceViewProps {
  readonly model: TimelineModel;
  readonly records: readonly TraceRecord[];
  onSelectSeq(seq: number): void;
  readonly selectedSeq?: number | null;
  /** Screen px per diagram unit (1, or the Large text factor). */
  readonly scale?: number;
}

/** The swimlane diagram of a trace, with Export SVG / Export PNG in its own header. */
export function SequenceView({
  model,
  records,
  onSelectSeq,
  selectedSeq = null,
  scale = 1,
}: SequenceViewProps) {
  // A live trace re-lays out on every batch: deferred, so typing and scrolling stay responsive.
  const deferredRecords = useDeferredValue(records);
  const deferredModel = useDeferredValue(model);
  const layout = useMemo(() => {
    const l = layoutSequence(deferredRecords, deferredModel);
    return timesUnknown(deferredModel.header?.imported) ? { ...l, startTs: null } : l;
  }, [deferredRecords, deferredModel]);
  const scrollRef = useRef<HTMLDivElement>(null);
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

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
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
      <header className="seq__header">
        <h2 className="seq__title">Sequence</h2>
        <span className="seq__range">
          {rowCount === 0
            ? "no rows"
            : `rows ${firstOnScreen + 1}–${lastOnScreen + 1} of ${rowCount} · ${layout.frames} frames`}
        </span>
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
