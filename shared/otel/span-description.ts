/**
 * Span descriptions: what the OpenTelemetry export makes of the analyzer's model, as plain data
 * (names, kinds, attributes, events, times). `shared/otel/` maps; `electron/otel/` feeds an SDK.
 */

/** An attribute value OTLP carries: a string, a number, a boolean, or a list of strings. */
export type SpanAttributeValue = string | number | boolean | readonly string[];

/** Attributes by name (`rpc.method`, `acp.verdict`, ...); absent values are left out, never null. */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>;

/** The OTel span kinds the export uses. */
export type SpanKindName = "internal" | "client";

/** A span's status: `error` when the evidence shows a failure, else `unset`. */
export interface SpanStatusDescription {
  readonly code: "unset" | "error";
  readonly message?: string;
}

/** One timed event on a span (an Agent exit, a fault applied). */
export interface SpanEventDescription {
  readonly name: string;
  /** Epoch milliseconds (trace record `ts`). */
  readonly time: number;
  readonly attributes: SpanAttributes;
}

/** Everything needed to start a span. */
export interface SpanStart {
  readonly name: string;
  readonly kind: SpanKindName;
  /** Epoch milliseconds (trace record `ts`). */
  readonly startTime: number;
  readonly attributes: SpanAttributes;
}

/** A span known from start to end at once (an attempt, a request, a lone lifecycle event). */
export interface SpanDescription extends SpanStart {
  readonly endTime: number;
  readonly status: SpanStatusDescription;
  readonly events: readonly SpanEventDescription[];
}

/**
 * One step for the exporter shell, in order. `ref` names a span kept open (a submission's root);
 * `parent` is the `ref` of the span a new span nests under, or null for a trace of its own. A ref
 * stays valid after `close` (a later attempt of a settled submission still nests under it).
 */
export type SpanOp =
  | { readonly op: "open"; readonly ref: number; readonly span: SpanStart }
  | { readonly op: "event"; readonly ref: number; readonly event: SpanEventDescription }
  | {
      readonly op: "close";
      readonly ref: number;
      readonly endTime: number;
      readonly attributes: SpanAttributes;
      readonly status: SpanStatusDescription;
    }
  | { readonly op: "span"; readonly parent: number | null; readonly span: SpanDescription };
