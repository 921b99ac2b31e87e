/**
 * W3C Trace Context in ACP requests: a `traceparent` in `params._meta` (as MCP's and ACP's
 * meta-propagation conventions put it) names the caller's span, so an agent's spans can be tied
 * to the prompt that carried it.
 */

/** The parts of a `traceparent`. */
export interface TraceParent {
  /** 32 lowercase hex digits. */
  readonly traceId: string;
  /** The caller's span id, 16 lowercase hex digits. */
  readonly parentId: string;
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** Parses a `traceparent` header value (version 00, or a later one read as 00); null when it is not one. */
export function parseTraceParent(value: unknown): TraceParent | null {
  if (typeof value !== "string") return null;
  const m = TRACEPARENT.exec(value.trim());
  if (!m || m[1] === "ff") return null;
  const [, version, traceId, parentId, flags] = m as unknown as [string, string, string, string, string];
  if (version === "00" && value.trim().length !== 55) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return null;
  return { traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` of a request's params (`params._meta.traceparent`), if it has a valid one. */
export function traceParentOfParams(params: unknown): TraceParent | null {
  if (params === null || typeof params !== "object") return null;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === null || typeof meta !== "object") return null;
  return parseTraceParent((meta as { traceparent?: unknown }).traceparent);
}
