/**
 * The cut idle gaps of the Timeline's waterfall axis (`shared/analyzer/waterfall-gaps.ts`): each is a
 * fixed-width break drawn across the track, named with its real duration.
 */
import { durationText } from "../../../shared/analyzer/waterfall.js";
import type { TimeAxis } from "../../../shared/analyzer/waterfall-gaps.js";

/** "idle 58 min 3 s, not drawn to scale". */
export function breakText(b: { start: number; end: number }): string {
  return `idle ${durationText(b.end - b.start)}, not drawn to scale`;
}

/** The breaks of `axis` inside one waterfall cell (positioned like its bars). */
export function WaterfallBreaks({ axis }: { axis: TimeAxis }) {
  return (
    <>
      {axis.breaks.map((b) => (
        <span
          key={b.start}
          className="wf__break"
          title={breakText(b)}
          style={{ left: `${b.left * 100}%`, width: `${b.width * 100}%` }}
        />
      ))}
    </>
  );
}

/** The header's words for an axis with breaks: ", 2 idle gaps cut (58 min 3 s, 12 min 0 s)". */
export function breaksNote(axis: TimeAxis | null): string {
  if (!axis || axis.breaks.length === 0) return "";
  const list = axis.breaks.map((b) => durationText(b.end - b.start)).join(", ");
  return `, ${axis.breaks.length} idle gap${axis.breaks.length === 1 ? "" : "s"} cut (${list})`;
}
