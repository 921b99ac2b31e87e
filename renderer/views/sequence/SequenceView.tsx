/**
 * The sequence view: Client, Inspector and Agent swimlanes with one arrow per frame, markers for
 * connection breaks, agent restarts and faults, idle gaps compressed. Only the rows on screen (plus
 * a margin) are in the DOM, so traces of many thousands of frames scroll smoothly. With the
 * shared filter (renderer/model/filter/record-filter.ts) the rows it matches are marked, or drawn alone,
 * and a submission picker jumps to any submission. `scale` (Large text) draws the whole diagram
 * bigger, text and arrows alike: it is laid out in diagram units and shown `scale` times as large.
 *
 * The parts: layout (`sequence-layout.ts`, `sequence-match.ts`, `sequence-scene.ts`), drawing
 * (`SequenceCanvas.tsx`, `SceneShapes.tsx`), interaction (`use-sequence-scroll.ts`,
 * `SequenceHeader.tsx`, `SequenceFilterBar.tsx`, `submission-picker.ts`, `sequence-export-actions.ts`).
 */
import { type ReactNode, useDeferredValue, useMemo, useState } from "react";
import type { Submission, TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import { timesUnknown } from "../../../shared/trace/interchange/describe.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import type { RecordMatch } from "../../model/filter/record-filter.js";
import { MIN_WIDTH } from "./lanes.js";
import { SequenceCanvas } from "./SequenceCanvas.js";
import { SequenceFilterBar } from "./SequenceFilterBar.js";
import { SequenceHeader } from "./SequenceHeader.js";
import { exportSequencePng, exportSequenceSvg } from "./sequence-export-actions.js";
import { layoutSequence, rowIndexAt, rowIndexOfSeq } from "./sequence-layout.js";
import { matchingRowIndexes, matchingRowsIn, onlyMatching } from "./sequence-match.js";
import { buildScene } from "./sequence-scene.js";
import { pickableSubmissions } from "./submission-picker.js";
import { useSequenceScroll } from "./use-sequence-scroll.js";
import "./sequence.css";

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
  const matchRows = useMemo(
    () => (filtering && deferredMatch ? matchingRowIndexes(layout, deferredMatch.mask, showOnly) : []),
    [layout, filtering, showOnly, deferredMatch],
  );
  const { scrollRef, lanesRef, view, onScroll, scrollToRow } = useSequenceScroll(layout, scale, selectedSeq);
  const [status, setStatus] = useState("");

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
  const pickable = useMemo(
    () => pickableSubmissions(submissions, filtering && deferredMatch ? deferredMatch.mask : null),
    [submissions, filtering, deferredMatch],
  );
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
  const marks = useMemo(
    () =>
      !filtering || showOnly || !deferredMatch ? [] : matchingRowsIn(layout, deferredMatch.mask, from, to),
    [filtering, showOnly, deferredMatch, layout, from, to],
  );
  const exportInput = { layout, width, firstOnScreen, lastOnScreen, selectedSeq };

  return (
    <section className="seq" aria-label="Sequence diagram">
      <SequenceFilterBar
        filterBar={filterBar}
        filtering={filtering}
        showOnly={showOnly}
        onlyMatches={onlyMatches}
        onOnlyMatchesChange={onOnlyMatchesChange}
        matches={matchRows.length}
        allRows={fullLayout.rows.length}
        onStep={stepMatch}
      />
      <SequenceHeader
        rowCount={rowCount}
        firstOnScreen={firstOnScreen}
        lastOnScreen={lastOnScreen}
        frames={layout.frames}
        pickable={pickable}
        filtering={filtering}
        onJump={jump}
        hasSelection={selectedSeq !== null}
        onShowSelection={() => selectedSeq !== null && goToSeq(selectedSeq, "Selection")}
        onExportSvg={() => setStatus(exportSequenceSvg(exportInput))}
        onExportPng={() => exportSequencePng(exportInput, setStatus)}
        status={status}
      />
      <SequenceCanvas
        scrollRef={scrollRef}
        lanesRef={lanesRef}
        onScroll={onScroll}
        width={width}
        height={layout.height}
        scale={scale}
        rowCount={rowCount}
        scene={scene}
        marks={marks}
        onSelectSeq={onSelectSeq}
      />
    </section>
  );
}
