/** The Waterfall column's cell (a row's bar on its window's track) and its header's second line (the track's length). */

import { useContext } from "react";
import { barOf, trackOf, trackText } from "../../../shared/analyzer/waterfall.js";
import { barOnAxis } from "../../../shared/analyzer/waterfall-gaps.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { RowFactsContext, spanOfRow } from "./row-facts.js";
import { waterfallText, windowFor } from "./row-words.js";
import { breaksNote, WaterfallBreaks } from "./WaterfallBreaks.js";

/** A bar in the waterfall track: its start offset and duration on its window's track (DevTools Network style). */
export function Waterfall({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const span = spanOfRow(r, facts);
  const w = windowFor(r, facts);
  if (!span || !w) {
    return r.kind === "submission" || r.kind === "attempt" || r.kind === "request" ? (
      <span className="muted">time unknown</span>
    ) : null;
  }
  // On the window's track, not the window: a live trace's growing window moves no shown bar.
  // Top-level rows share an axis whose long idle gaps are cut (breaks marked with their duration).
  const axis = r.kind !== "attempt" ? facts.topAxis : null;
  const bar = axis ? barOnAxis(span, axis, w.end) : barOf(span, trackOf(w), w.end);
  const label = waterfallText(r, facts);
  if (r.kind === "event") {
    return (
      <span className="wf" role="img" aria-label={label}>
        {axis && <WaterfallBreaks axis={axis} />}
        <span className={`wf__tick wf__tick--${r.event.tone}`} style={{ left: `${bar.left * 100}%` }} />
      </span>
    );
  }
  return (
    <span className="wf" role="img" aria-label={label}>
      {axis && <WaterfallBreaks axis={axis} />}
      <span
        className={`wf__bar wf__bar--${bar.state}${bar.open ? " wf__bar--open" : ""}`}
        style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%` }}
      />
    </span>
  );
}

/**
 * The Waterfall header's second line: the length of the track the top-level rows' bars are drawn
 * on, so the column's empty right part reads as time still to come, not as a gap.
 */
export function WaterfallTrack() {
  const { topWindow: w, topAxis } = useContext(RowFactsContext);
  const track = topAxis ? topAxis.track : w ? trackOf(w) : null;
  const len = track ? track.end - track.start : 0;
  if (!(len > 0)) return null;
  const text = trackText(len);
  const cut = breaksNote(topAxis);
  return (
    <span
      className="vtable__th-note"
      title={`The column's width is ${text}, from the start of the earliest row shown${cut ? `; long idle gaps are cut to a fixed-width break (hatched)${cut}` : ""}; an attempt's bars use its submission's own track.`}
    >
      0–{text}
      {topAxis && topAxis.breaks.length > 0 ? ` · ${topAxis.breaks.length} cut` : ""}
    </span>
  );
}
