/**
 * The sacp/symposium conductor's trace (`.jsons`, symposium-acp src/sacp-conductor/src/trace.rs):
 * one JSON object per line, tagged by `type`:
 * - `request`: `ts`, `protocol` (`acp`/`mcp`), `from`, `to`, `id`, `method`, `session?`, `params`
 * - `response`: `ts`, `from`, `to`, `id`, `is_error`, `payload` (the result, or the error object)
 * - `notification`: `ts`, `protocol`, `from`, `to`, `method`, `session?`, `params`
 * `ts` is seconds since the trace started (monotonic), so times are relative to an unknown wall-clock
 * start. `from`/`to` name components of the conductor's chain: `client`, `proxy:0`, `proxy:1`, ...,
 * `agent`. Each hop between two neighbours becomes one connection; the end nearer the client is the
 * client side. Messages are parsed values, so frames are rebuilt as JSON-RPC text.
 */
import type { Direction, TraceHeader } from "../record.js";
import {
  type Conversion,
  convertEntry,
  convertedHeader,
  convertLines,
  jsonRpcText,
  type LineConversion,
  objectLine,
  RecordBuilder,
  safeJson,
} from "./conversion.js";

/** The `imported.format` of a converted sacp trace. */
export const SACP_TRACE = "sacp-trace";

/** The position of a component in the chain: client first, then proxies in order, agent last. */
function rank(name: string): number | null {
  if (name === "client") return -1;
  if (name === "agent") return Number.MAX_SAFE_INTEGER;
  const m = /^proxy:(\d+)$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** A `.jsons` file, a line at a time. */
export class SacpTraceLines implements LineConversion {
  readonly builder = new RecordBuilder();
  readonly ready = true;
  private readonly conns = new Map<string, number>();
  private lastTs = 0;

  line(line: string, lineNo: number): void {
    convertEntry(this.builder, this.lastTs, `line ${lineNo}`, line, () => this.entry(line, lineNo));
  }

  /** One line of the source (`line` keeps it as a note when this throws). */
  private entry(line: string, lineNo: number): void {
    const b = this.builder;
    const conns = this.conns;
    const lastTs = this.lastTs;
    const where = `line ${lineNo}`;
    const e = objectLine(b, lastTs, where, line);
    if (e === null) return;
    const ts = typeof e.ts === "number" && Number.isFinite(e.ts) ? Math.max(lastTs, e.ts * 1000) : lastTs;
    this.lastTs = ts;
    const from = typeof e.from === "string" ? e.from : "";
    const to = typeof e.to === "string" ? e.to : "";
    const rf = rank(from);
    const rt = rank(to);
    if (rf === null || rt === null || rf === rt) {
      b.unreadable(
        ts,
        where,
        `unknown hop ${safeJson(from).slice(0, 80)} -> ${safeJson(to).slice(0, 80)}`,
        line,
      );
      return;
    }
    const dir: Direction = rf < rt ? "client->agent" : "agent->client";
    const hop = rf < rt ? `${from} <-> ${to}` : `${to} <-> ${from}`;
    let conn = conns.get(hop);
    if (conn === undefined) {
      conn = conns.size + 1;
      conns.set(hop, conn);
      b.push({ type: "conn-open", ts, conn, transport: "sacp", peer: hop });
    }
    switch (e.type) {
      case "request":
        b.frame(ts, conn, dir, jsonRpcText({ id: e.id, method: e.method, params: e.params }));
        return;
      case "notification":
        b.frame(ts, conn, dir, jsonRpcText({ method: e.method, params: e.params }));
        return;
      case "response":
        b.frame(
          ts,
          conn,
          dir,
          e.is_error === true
            ? jsonRpcText({ id: e.id, error: e.payload })
            : jsonRpcText({ id: e.id, result: e.payload ?? null }),
        );
        return;
      default:
        b.unreadable(ts, where, `unknown type ${safeJson(e.type).slice(0, 80)}`, line);
    }
  }

  header(): TraceHeader {
    return convertedHeader(SACP_IMPORTED, new Date(0).toISOString(), SACP_EXTRA);
  }
}

const SACP_IMPORTED = { format: SACP_TRACE, lacks: ["wall-clock", "exact-bytes"] } as const;
const SACP_EXTRA = { transport: "sacp", name: "sacp conductor trace" } as const;

/** Converts the text of a `.jsons` file. */
export function convertSacpTrace(text: string): Conversion {
  return convertLines(new SacpTraceLines(), text);
}
