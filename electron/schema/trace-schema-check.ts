import type { Frame } from "../../shared/protocol/frame.js";
import type { FrameSchemaReport, SchemaCheckSummary } from "../../shared/schema/schema-report.js";
import { jsonTextTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from "../../shared/trace/json-depth.js";
import type { FrameRecord, TraceRecord } from "../../shared/trace/record.js";
import { acpSchema, SCHEMA_LABEL, type SchemaVersion } from "./acp-schemas.js";
import { extensionFields } from "./extension-fields.js";
import { type FrameKind, frameType } from "./frame-types.js";
import { capViolations, readableViolations } from "./schema-errors.js";

/** At most this many frame reports are kept per trace (the counts still cover every frame). */
export const MAX_REPORTS = 1000;

/**
 * How many frames `analyze`'s default check (a count) looks at: checking costs about 2.3x the
 * analysis per frame (docs/benchmarks.md), so a million-frame trace would take 3x as long to analyze.
 * A session of this size is checked whole; `analyze --schema` and `validate` check every frame.
 */
export const DEFAULT_COUNT_FRAMES = 20_000;

/** Requests remembered for matching their answers (the oldest are forgotten first). */
const MAX_PENDING = 100_000;

/** Per connection: the protocol version its `initialize` asked for and the one the Agent answered. */
interface ConnVersion {
  requested: SchemaVersion | null;
  agreed: SchemaVersion | null;
}

/** 1 or 2 from a `protocolVersion` field (any later version is checked as v2), else null. */
function versionOf(v: unknown): SchemaVersion | null {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) return null;
  return v >= 2 ? 2 : 1;
}

/** The frame's JSON value, or undefined when it is not JSON (then it is the analyzer's malformed row, not checked). */
function parseRaw(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The JSON value of a frame the analyzer classified (a malformed one keeps its value when it parsed). */
function parsedValue(frame: Frame): unknown {
  return frame.kind === "malformed" ? frame.value : frame.message;
}

/** What a check keeps: every report (`list`), or only the counts (`count`: no readable violations, no extension marks). */
export type SchemaCheckDetail = "list" | "count";

/**
 * Checks every frame of a trace against the official ACP schema the SDK ships (v1 or v2, chosen by
 * the connection's negotiated `protocolVersion`; v1 when no `initialize` was seen, and said so), v2
 * extended with the RFD's `idempotencyKey`. Feed records in seq order with `ingest`; `reports` lists
 * the frames that break the schema or carry extension fields (with `detail` "list"; "count" keeps
 * only the totals, for `analyze`'s default summary, and leaves `framesWithExtensions` at 0).
 */
export class TraceSchemaCheck {
  readonly reports: FrameSchemaReport[] = [];
  private readonly conns = new Map<number, ConnVersion>();
  private readonly pending = new Map<string, string>();
  private readonly unknownVersionConns = new Set<number>();
  private checked = 0;
  private framesWithViolations = 0;
  private framesWithExtensions = 0;
  private notChecked = 0;
  private reportsLeftOut = 0;
  private sawV2 = false;
  private frames = 0;
  private framesPastBound = 0;

  /** `maxFrames`: check only the first frames of the trace (the rest are counted as past the bound). */
  constructor(
    readonly detail: SchemaCheckDetail = "list",
    private readonly maxFrames = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Checks one record (only `frame` records are looked at); returns its report when it has something to say.
   * `parsed`: the frame as the analyzer parsed it (`Analyzer.ingest`'s answer), so the frame is parsed once
   * for both; without it the check parses `raw` itself.
   */
  ingest(record: TraceRecord, parsed?: Frame): FrameSchemaReport | null {
    if (record.type !== "frame") return null;
    if (++this.frames > this.maxFrames) {
      this.framesPastBound++;
      return null;
    }
    const frame = record as FrameRecord;
    // flagged or base64 frames are the analyzer's "malformed" rows already; not JSON-RPC to check
    if (frame.encoding === "base64" || (frame.flags && frame.flags.length > 0)) return null;
    if (jsonTextTooDeep(frame.raw, MAX_JSON_DEPTH))
      return this.keep(this.notCheckedReport(frame, `${TOO_DEEP}; not checked`));
    const msg = parsed === undefined ? parseRaw(frame.raw) : parsedValue(parsed);
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return null;
    const m = msg as Record<string, unknown>;
    const hasId = "id" in m && m.id !== undefined;
    let kind: FrameKind;
    let method: string | null;
    if (typeof m.method === "string") {
      kind = hasId ? "request" : "notification";
      method = m.method;
      if (hasId) this.remember(`${frame.conn} ${frame.dir} ${JSON.stringify(m.id)}`, method);
    } else if ("result" in m || "error" in m) {
      kind = "error" in m ? "error" : "result";
      // Answers are looked up, not consumed: a dropped answer and the inspector's forwarded copy
      // (carrying the client's id, naming the retry's id in `replaces`) answer the same request.
      const other = frame.dir === "client->agent" ? "agent->client" : "client->agent";
      const ids = frame.replaces !== undefined ? [frame.replaces, m.id] : [m.id];
      method = null;
      for (const id of ids)
        method ??= this.pending.get(`${frame.conn} ${other} ${JSON.stringify(id)}`) ?? null;
    } else return null;
    const version = this.versionFor(frame.conn, kind, method, m);
    const schema = acpSchema(version.version);
    if (version.version === 2) this.sawV2 = true;
    const label = `${SCHEMA_LABEL[version.version]}${version.assumed ? " (version unknown: v1 assumed)" : ""}`;
    if (kind === "result" && method === null)
      return this.keep(
        this.notCheckedReport(
          frame,
          "answers no request seen on its connection; not checked",
          label,
          null,
          kind,
        ),
      );
    const type = frameType(schema, kind, method as string);
    if (type === null)
      return this.keep(
        this.notCheckedReport(
          frame,
          `method not in the ${SCHEMA_LABEL[version.version]} schema; not checked`,
          label,
          method,
          kind,
        ),
      );
    const part = kind === "request" || kind === "notification" ? "params" : kind;
    const value = m[part];
    const base = `/${part}`;
    const validate = schema.validator(`/$defs/${type}`);
    this.checked++;
    const ok = validate(value);
    if (this.detail === "count") {
      if (!ok) this.framesWithViolations++;
      return null;
    }
    const violations = ok
      ? []
      : capViolations(readableViolations(schema, validate.errors ?? [], value, base), base);
    const extensions = ok ? extensionFields(schema, `/$defs/${type}`, value, base) : [];
    if (violations.length > 0) this.framesWithViolations++;
    else if (extensions.length > 0) this.framesWithExtensions++;
    else return null;
    return this.keep({
      seq: frame.seq,
      conn: frame.conn,
      dir: frame.dir,
      method,
      kind,
      schema: label,
      type,
      violations,
      extensions,
    });
  }

  /** The totals so far. */
  summary(): SchemaCheckSummary {
    const notes: string[] = [];
    if (this.sawV2)
      notes.push(
        "v2 frames are checked against the SDK 2.4.0 v2 schema extended with the RFD's session/prompt idempotencyKey (string or null, 1 to 255 characters counted in Unicode code points)",
      );
    if (this.unknownVersionConns.size > 0)
      notes.push(
        `no initialize seen on connection(s) ${[...this.unknownVersionConns].map((c) => `#${c}`).join(", ")}: checked against v1`,
      );
    return {
      checked: this.checked,
      framesWithViolations: this.framesWithViolations,
      framesWithExtensions: this.framesWithExtensions,
      ...(this.framesPastBound > 0 && { framesPastBound: this.framesPastBound }),
      notChecked: this.notChecked,
      reportsLeftOut: this.reportsLeftOut,
      notes,
    };
  }

  /** The schema version for a frame: `initialize` frames by their own version, others by their connection's. */
  private versionFor(
    conn: number,
    kind: FrameKind,
    method: string | null,
    m: Record<string, unknown>,
  ): { version: SchemaVersion; assumed: boolean } {
    let cv = this.conns.get(conn);
    if (!cv) {
      cv = { requested: null, agreed: null };
      this.conns.set(conn, cv);
    }
    if (method === "initialize") {
      const part = (kind === "request" ? m.params : m.result) as Record<string, unknown> | undefined;
      const v = versionOf(part?.protocolVersion);
      if (kind === "request" && v !== null) cv.requested = v;
      if (kind === "result" && v !== null) cv.agreed = v;
      if (v !== null) return { version: v, assumed: false };
    }
    const v = cv.agreed ?? cv.requested;
    if (v !== null) return { version: v, assumed: false };
    this.unknownVersionConns.add(conn);
    return { version: 1, assumed: true };
  }

  private notCheckedReport(
    frame: FrameRecord,
    why: string,
    schema = "",
    method: string | null = null,
    kind: FrameKind = "request",
  ): FrameSchemaReport {
    this.notChecked++;
    return {
      seq: frame.seq,
      conn: frame.conn,
      dir: frame.dir,
      method,
      kind,
      schema,
      type: null,
      violations: [],
      extensions: [],
      notChecked: why,
    };
  }

  /** Remembers a request's method by connection, direction and id; the oldest are forgotten past MAX_PENDING. */
  private remember(key: string, method: string): void {
    this.pending.delete(key);
    this.pending.set(key, method);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }

  private keep(report: FrameSchemaReport): FrameSchemaReport {
    if (this.detail === "count") return report;
    if (this.reports.length < MAX_REPORTS) this.reports.push(report);
    else this.reportsLeftOut++;
    return report;
  }
}
