/**
 * venikman/ACP-inspector's recordings (cli/apps/ACP.Cli/Commands/InspectCommand.fs, `TraceFrame`;
 * sentinel/tests/traces/README.md): JSON Lines of `{ts, direction, json}`. `ts` is an ISO 8601 time
 * (or epoch milliseconds), `direction` is `fromClient` or `fromAgent` (the tool also reads `client`,
 * `c2a`, `c->a` and the agent forms, case-insensitively), and `json` is the frame's text as a string:
 * kept as the frame's `raw` unchanged. One connection.
 */
import type { Direction, TraceHeader } from "../record.js";
import {
  type Conversion,
  convertEntry,
  convertedHeader,
  convertLines,
  isoTime,
  type LineConversion,
  objectLine,
  RecordBuilder,
  safeJson,
} from "./conversion.js";

/** The `imported.format` of a converted ACP-inspector recording. */
export const ACP_INSPECTOR_JSONL = "acp-inspector-jsonl";

/** The direction names ACP-inspector accepts. */
export function inspectorDirection(v: unknown): Direction | null {
  if (typeof v !== "string") return null;
  const d = v.trim().toLowerCase();
  if (d === "fromclient" || d === "client" || d === "c2a" || d === "c->a") return "client->agent";
  if (d === "fromagent" || d === "agent" || d === "a2c" || d === "a->c") return "agent->client";
  return null;
}

function epochMs(ts: unknown): number | null {
  if (typeof ts === "number" && Number.isFinite(ts)) return ts;
  if (typeof ts === "string") {
    const ms = Date.parse(ts);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** A recording, a line at a time. */
export class AcpInspectorLines implements LineConversion {
  readonly builder = new RecordBuilder();
  private first: number | null = null;
  private lastTs = 0;
  private opened = false;

  get ready(): boolean {
    return this.first !== null;
  }

  line(line: string, lineNo: number): void {
    convertEntry(this.builder, this.lastTs, `line ${lineNo}`, line, () => this.entry(line, lineNo));
  }

  /** One line of the source (`line` keeps it as a note when this throws). */
  private entry(line: string, lineNo: number): void {
    const b = this.builder;
    const where = `line ${lineNo}`;
    const e = objectLine(b, this.lastTs, where, line);
    if (e === null) return;
    const at = epochMs(e.ts);
    if (at !== null && this.first === null) this.first = at;
    // The trace model's clock never goes backwards: an earlier or missing time keeps the last one.
    const ts = at === null ? this.lastTs : Math.max(this.lastTs, at);
    this.lastTs = ts;
    if (!this.opened) {
      this.opened = true;
      b.push({ type: "conn-open", ts, conn: 1, transport: "stdio", peer: "ACP-inspector recording" });
    }
    const dir = inspectorDirection(e.direction);
    if (!dir) {
      b.unreadable(ts, where, `unknown direction ${safeJson(e.direction).slice(0, 80)}`, line);
      return;
    }
    if (typeof e.json !== "string") {
      b.unreadable(ts, where, '"json" is not a string', line);
      return;
    }
    if (at === null) b.problems.push(`${where}: no readable ts (kept the previous time)`);
    b.frame(ts, 1, dir, e.json);
  }

  header(): TraceHeader {
    return convertedHeader({ format: ACP_INSPECTOR_JSONL, lacks: [] }, isoTime(this.first ?? 0), {
      transport: "stdio",
      name: "ACP-inspector recording",
    });
  }
}

/** Converts the text of a recording. */
export function convertAcpInspectorJsonl(text: string): Conversion {
  return convertLines(new AcpInspectorLines(), text);
}
