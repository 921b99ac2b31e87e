/**
 * The machine-readable line a tap prints once it is ready (`proxy --ready-json`, `--ready-fd N`):
 * one JSON object on one line. Whoever starts a child tap reads this, never the tap's human
 * messages on stderr.
 */
import type { Readable } from "node:stream";

/** What a ready tap tells its starter. */
export interface TapReady {
  /** Where a `--listen` tap serves; null for a stdio tap. */
  readonly address: { readonly ws: string; readonly http: string } | null;
  /** The 0600 file holding the front's generated token (`<trace>.token`); null when none was written. */
  readonly tokenFile: string | null;
  /** The trace file being written; null when the tap runs untraced. */
  readonly trace: string | null;
  /** The hub's id for this trace (`fault --tap`) when attached at start; null without a hub. */
  readonly traceId: string | null;
  /** The tap's process id. */
  readonly pid: number;
}

/** The longest ready line read; a longer line is not one. */
const MAX_READY_LINE = 64 * 1024;

/** The ready line for `tap`, newline included. */
export function readyLine(tap: TapReady): string {
  const { address, tokenFile, trace, traceId, pid } = tap;
  return `${JSON.stringify({ address, tokenFile, trace, traceId, pid })}\n`;
}

/** The ready line's fields, or a reason it is not one. */
export function parseReadyLine(line: string): TapReady | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return "not JSON";
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not a JSON object";
  const r = v as Record<string, unknown>;
  const text = (x: unknown) => x === null || typeof x === "string";
  const a = r.address as Record<string, unknown> | null | undefined;
  const address =
    a === null
      ? null
      : typeof a === "object" && typeof a?.ws === "string" && typeof a.http === "string"
        ? a
        : undefined;
  if (address === undefined) return "address is neither null nor {ws, http}";
  if (!text(r.tokenFile) || !text(r.trace) || !text(r.traceId))
    return "tokenFile, trace or traceId is not a string or null";
  if (typeof r.pid !== "number" || !Number.isSafeInteger(r.pid)) return "pid is not an integer";
  return {
    address: address === null ? null : { ws: address.ws as string, http: address.http as string },
    tokenFile: r.tokenFile as string | null,
    trace: r.trace as string | null,
    traceId: r.traceId as string | null,
    pid: r.pid,
  };
}

/**
 * Resolves with the ready line read from `stream` (a child tap's stdout or `--ready-fd`); rejects
 * when the stream ends first, or its first line is not a ready line. Leaves the stream flowing.
 */
export function readReadyLine(stream: Readable): Promise<TapReady> {
  return new Promise<TapReady>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer | string) => {
      seen += String(chunk);
      const end = seen.indexOf("\n");
      if (end < 0 && seen.length <= MAX_READY_LINE) return;
      stream.off("data", onData);
      stream.off("end", onEnd);
      const ready = parseReadyLine(end < 0 ? "" : seen.slice(0, end));
      if (typeof ready === "string") reject(new Error(`the tap's ready line is not one: ${ready}`));
      else resolve(ready);
    };
    const onEnd = () => {
      stream.off("data", onData);
      reject(new Error("the tap ended before it was ready"));
    };
    stream.on("data", onData);
    stream.once("end", onEnd);
  });
}
