/**
 * What the schema check (electron/schema/, docs/analyzer.md#schema-check) says about one frame: the
 * official ACP schema's violations and the extension fields it marks. Pure data, JSON-ready.
 */

/** One place where a frame breaks the schema: a JSON pointer into the frame and what the schema says there. */
export interface SchemaViolation {
  /** JSON pointer into the whole frame, e.g. `/params/prompt/0/text`; `` for the frame itself. */
  readonly path: string;
  /** What the schema says, e.g. `must have required property 'messageId'`. */
  readonly message: string;
}

/** One extension the schema allows but does not declare: a `_meta` object, or a property it does not list. */
export interface SchemaExtension {
  /** JSON pointer of the field, e.g. `/params/_meta` or `/result/agentInfo/build`. */
  readonly path: string;
  /** `meta` for `_meta`, `undeclared` for a property the schema does not list. */
  readonly kind: "meta" | "undeclared";
}

/** The schema check of one frame that broke the schema or carries extensions. */
export interface FrameSchemaReport {
  readonly seq: number;
  readonly conn: number;
  readonly dir: "client->agent" | "agent->client";
  /** The method (for an answer: the method of the request it answers), null when unknown. */
  readonly method: string | null;
  /** `request`, `result`, `error` or `notification`. */
  readonly kind: "request" | "result" | "error" | "notification";
  /** The schema checked against, e.g. `v2 (+ RFD idempotencyKey)` or `v1 (version unknown: v1 assumed)`. */
  readonly schema: string;
  /** The schema type the frame was matched to, e.g. `PromptRequest`; null when the method is not in the schema. */
  readonly type: string | null;
  readonly violations: readonly SchemaViolation[];
  readonly extensions: readonly SchemaExtension[];
  /** Set when the frame was not checked (nested deeper than the bound, method not in the schema); says why. */
  readonly notChecked?: string;
}

/** Totals of one trace's schema check (what `validate` prints first). */
export interface SchemaCheckSummary {
  /** Frames matched to a schema type and validated. */
  readonly checked: number;
  /** Frames with at least one violation. */
  readonly framesWithViolations: number;
  /** Frames carrying extension fields (`_meta` or undeclared properties) and no violation. */
  readonly framesWithExtensions: number;
  /** Frames not checked (method not in the schema, answer to an unseen request, nested too deep). */
  readonly notChecked: number;
  /** Reports left out past MAX_REPORTS. */
  readonly reportsLeftOut: number;
  /** What the check assumed, in words (the RFD extension; connections whose version was unknown). */
  readonly notes: readonly string[];
  /** Frames left unchecked past the check's bound (`analyze`'s default checks the first frames only); absent when none. */
  readonly framesPastBound?: number;
}
