/**
 * A Timeline column's full text for a row (`cellText`): the tooltip of a cut cell and the Details
 * pane's list of the row's columns show it, hidden columns included.
 */

import { latencyText } from "../../../shared/analyzer/waterfall.js";
import { clockTime } from "../../model/text/clock-time.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { groupLineText } from "./GroupLine.js";
import { type RowFacts, spanOfRow } from "./row-facts.js";
import {
  connsOf,
  detailText,
  keyText,
  pidsOf,
  resultText,
  startTs,
  verdictBadges,
  waterfallText,
  whatText,
} from "./row-words.js";

/** A column's full text for a row, as its tooltip and the Details pane show it, its invisible controls shown. */
export function cellText(columnId: string, r: TimelineRow, facts: RowFacts): string {
  return visibleText(cellWords(columnId, r, facts));
}

function cellWords(columnId: string, r: TimelineRow, facts: RowFacts): string {
  switch (columnId) {
    case "what":
      return whatText(r);
    case "time": {
      const ts = startTs(r, facts);
      if (ts === undefined) return "";
      return facts.timesKnown ? clockTime(ts) : "time unknown";
    }
    case "verdict":
      return verdictBadges(r).join(", ");
    case "session":
      return r.kind === "submission" || r.kind === "request" ? visibleText(r.row.sessionId ?? "") : "";
    case "key":
      return keyText(r);
    case "detail":
      return detailText(r, facts);
    case "attempts":
      return r.kind === "submission" ? String(r.row.attempts.length) : "";
    case "ids":
      if (r.kind === "submission") return r.row.attempts.map((a) => String(a.id)).join(", ");
      if (r.kind === "attempt") return String(r.attempt.id);
      if (r.kind === "request") return String(r.row.jsonRpcId);
      return "";
    case "conns":
      return connsOf(r)
        .map((c) => `#${c}`)
        .join(" ");
    case "pid":
      return pidsOf(r, facts).join(" ");
    case "latency": {
      if (r.kind === "event" || r.kind === "frame" || r.kind === "malformed") return "";
      return latencyText(spanOfRow(r, facts));
    }
    case "waterfall":
      return waterfallText(r, facts);
    case "result":
      return r.kind === "submission" ? `${resultText(r)}\n${groupLineText(r.row)}` : resultText(r);
    default:
      return "";
  }
}
