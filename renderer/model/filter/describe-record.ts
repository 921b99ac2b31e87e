/** What a non-frame trace record says, in a few words. */
import type { TraceRecord } from "../../../shared/trace/record.js";

/** A one-line description of a record (frames describe themselves by their bytes). */
export function describeRecord(r: TraceRecord): string {
  switch (r.type) {
    case "frame":
      return r.raw.slice(0, 200);
    case "conn-open":
      return `connection #${r.conn} opened (${r.transport})`;
    case "conn-close":
      return `connection #${r.conn} closed: ${r.reason}`;
    case "agent-spawn":
      return `agent started, pid ${r.pid}: ${r.command.join(" ")}`;
    case "agent-exit":
      return `agent ${r.pid} exited (${r.signal ?? `code ${r.code}`})`;
    case "agent-stderr":
      return r.teardown ? `[teardown] ${r.text}` : r.text;
    case "fault":
      return `fault ${r.action}${r.ruleId ? ` (rule ${r.ruleId})` : ""}${r.detail ? `: ${r.detail}` : ""}`;
    case "note":
      return `${r.level}: ${r.text}`;
    case "agent-span":
      return `agent span ${r.name} (${Math.round(r.endMs - r.startMs)} ms${r.service ? `, ${r.service}` : ""})`;
  }
}
