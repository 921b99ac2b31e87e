/**
 * The one check every reader runs on a record it did not make (a trace file line, an imported file,
 * a tap's batch to the hub, a hub event in a UI): each field of `record.ts` has the type it is
 * documented with. A record that fails is not thrown away and never throws: it becomes an
 * `InvalidRecord` that names each field that is wrong and why, and the readers keep and show it.
 */
import type { TraceRecord } from "./record.js";

/** One wrong field of a record. */
export interface RecordFault {
  /** The field's name (`raw`, `seq`, `command[2]`, ...). */
  readonly field: string;
  /** What is wrong with it, e.g. `must be a string, got number`. */
  readonly reason: string;
}

/**
 * A record that failed `recordFaults`: kept as this entry, shown flagged, never analysed as a record.
 * A class, so no record from the wire can pass for one by carrying an `invalid` field.
 */
export class InvalidRecord {
  readonly invalid = true;
  constructor(
    /** The record's seq when that field itself is valid (a positive integer), else null. */
    readonly seq: number | null,
    /** The record's `type` when it is a string, else null. */
    readonly recordType: string | null,
    readonly faults: readonly RecordFault[],
    /** The record as JSON, cut to its first `PREVIEW_CHARS` characters. */
    readonly preview: string,
  ) {}
}

/** How much of an invalid record's JSON its entry keeps. */
export const PREVIEW_CHARS = 200;

const DIRECTIONS = new Set(["client->agent", "agent->client"]);
const FLAGS: ReadonlySet<unknown> = new Set(["malformed", "not-utf8", "oversize", "unterminated"]);
const LEVELS: ReadonlySet<unknown> = new Set(["info", "warn", "error"]);
/** Every record `type` of `record.ts`. */
export const RECORD_TYPES: ReadonlySet<unknown> = new Set([
  "frame",
  "conn-open",
  "conn-close",
  "agent-spawn",
  "agent-exit",
  "agent-stderr",
  "fault",
  "note",
  "agent-span",
]);

/** `typeof`, with null and arrays told apart, for a reason's "got ...". */
function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return typeof v;
}

function isCount(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function isPositive(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0;
}

/** Collects faults; allocates only when the first one is found, so a valid record costs no garbage. */
class Faults {
  list: RecordFault[] | undefined;
  add(field: string, reason: string): void {
    this.list ??= [];
    this.list.push({ field, reason });
  }
  positive(r: Record<string, unknown>, field: string, optional: boolean): void {
    const v = r[field];
    if (v === undefined ? optional : isPositive(v)) return;
    this.add(field, v === undefined ? "missing" : `must be a positive integer, got ${shown(v)}`);
  }
  count(r: Record<string, unknown>, field: string, optional: boolean): void {
    const v = r[field];
    if (v === undefined ? optional : isCount(v)) return;
    this.add(field, v === undefined ? "missing" : `must be a non-negative integer, got ${shown(v)}`);
  }
  text(r: Record<string, unknown>, field: string, optional: boolean): void {
    const v = r[field];
    if (v === undefined ? optional : typeof v === "string") return;
    this.add(field, v === undefined ? "missing" : `must be a string, got ${kindOf(v)}`);
  }
  oneOf(r: Record<string, unknown>, field: string, allowed: ReadonlySet<unknown>, optional: boolean): void {
    const v = r[field];
    if (v === undefined ? optional : allowed.has(v)) return;
    const names = [...allowed].map((a) => JSON.stringify(a)).join(" or ");
    this.add(field, v === undefined ? "missing" : `must be ${names}, got ${shown(v)}`);
  }
  strings(r: Record<string, unknown>, field: string): void {
    const v = r[field];
    if (!Array.isArray(v)) {
      this.add(field, v === undefined ? "missing" : `must be an array of strings, got ${kindOf(v)}`);
      return;
    }
    for (let i = 0; i < v.length; i++) {
      if (typeof v[i] !== "string") {
        this.add(`${field}[${i}]`, `must be a string, got ${kindOf(v[i])}`);
        return;
      }
    }
  }
}

/** A short, terminal- and page-neutral rendering of a wrong value for a reason. */
function shown(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : kindOf(v);
  if (typeof v === "string") return `string ${JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v)}`;
  return kindOf(v);
}

const ONLY_TRUE = new Set([true]);
const ONLY_BASE64 = new Set(["base64"]);
const ORIGINS = new Set(["tap", "inspector"]);
const FATES = new Set(["released", "undelivered"]);

const isId = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

function frameFaults(r: Record<string, unknown>, f: Faults): void {
  f.positive(r, "conn", false);
  f.oneOf(r, "dir", DIRECTIONS, false);
  f.text(r, "raw", false);
  f.oneOf(r, "encoding", ONLY_BASE64, true);
  const flags = r.flags;
  if (flags !== undefined) {
    if (!Array.isArray(flags)) f.add("flags", `must be an array of frame flags, got ${kindOf(flags)}`);
    else
      for (let i = 0; i < flags.length; i++)
        if (!FLAGS.has(flags[i])) {
          f.add(`flags[${i}]`, `is not a frame flag: ${shown(flags[i])}`);
          break;
        }
  }
  f.count(r, "bytes", true);
  f.oneOf(r, "dropped", ONLY_TRUE, true);
  f.oneOf(r, "held", ONLY_TRUE, true);
  f.oneOf(r, "origin", ORIGINS, true);
  if (r.replaces !== undefined && !isId(r.replaces))
    f.add("replaces", `must be a string or a number, got ${shown(r.replaces)}`);
  f.positive(r, "copyOf", true);
  f.count(r, "previewOf", true);
  if (r.previewLeaks !== undefined) f.strings(r, "previewLeaks");
}

const isFiniteNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const isSpanKind = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 5;
const STATUSES = new Set(["ok", "error"]);

/** True for `digits` lowercase hex digits, not all zero (OTLP's invalid id). */
function isHexId(v: unknown, digits: number): boolean {
  return typeof v === "string" && v.length === digits && /^[0-9a-f]+$/.test(v) && /[1-9a-f]/.test(v);
}

function isScalar(v: unknown): boolean {
  return typeof v === "string" || typeof v === "boolean" || isFiniteNumber(v);
}

/** What is wrong with an agent span's `attributes`, or undefined: an object of scalars or lists of scalars. */
function attributesFault(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return `must be an object, got ${kindOf(v)}`;
  for (const [k, a] of Object.entries(v as Record<string, unknown>)) {
    if (isScalar(a)) continue;
    if (Array.isArray(a) && a.every(isScalar)) continue;
    return `${JSON.stringify(k.length > 24 ? `${k.slice(0, 24)}…` : k)} must be a string, number, boolean or a list of them, got ${kindOf(a)}`;
  }
  return undefined;
}

function agentSpanFaults(r: Record<string, unknown>, f: Faults): void {
  for (const [field, digits, optional] of [
    ["traceId", 32, false],
    ["spanId", 16, false],
    ["parentSpanId", 16, true],
  ] as const) {
    const v = r[field];
    if (v === undefined ? optional : isHexId(v, digits)) continue;
    f.add(
      field,
      v === undefined ? "missing" : `must be ${digits} lowercase hex digits, not all zero, got ${shown(v)}`,
    );
  }
  f.text(r, "name", false);
  if (r.kind !== undefined && !isSpanKind(r.kind))
    f.add("kind", `must be an integer 0 to 5, got ${shown(r.kind)}`);
  for (const field of ["startMs", "endMs"]) {
    const v = r[field];
    if (!isFiniteNumber(v))
      f.add(field, v === undefined ? "missing" : `must be a finite number, got ${shown(v)}`);
  }
  if (r.attributes !== undefined) {
    const why = attributesFault(r.attributes);
    if (why !== undefined) f.add("attributes", why);
  }
  f.oneOf(r, "status", STATUSES, true);
  f.text(r, "statusMessage", true);
  f.text(r, "service", true);
  f.positive(r, "conn", true);
  f.oneOf(r, "truncated", ONLY_TRUE, true);
}

function exitCodeFaults(r: Record<string, unknown>, f: Faults): void {
  const code = r.code;
  if (code !== null && !(typeof code === "number" && Number.isSafeInteger(code)))
    f.add("code", code === undefined ? "missing" : `must be an integer or null, got ${shown(code)}`);
  const signal = r.signal;
  if (signal !== null && typeof signal !== "string")
    f.add("signal", signal === undefined ? "missing" : `must be a string or null, got ${kindOf(signal)}`);
}

/**
 * The faults of a record-shaped object, or undefined when every field is as `record.ts` says.
 * `seq` must be a positive integer and `ts` a finite number; then the fields of its `type`.
 */
export function recordFaults(r: Record<string, unknown>): RecordFault[] | undefined {
  return looksValid(r as Loose) ? undefined : faultsOf(r);
}

/** A record's fields as the fast check reads them (named loads, so V8 keeps them monomorphic). */
interface Loose {
  readonly type?: unknown;
  readonly seq?: unknown;
  readonly ts?: unknown;
  readonly conn?: unknown;
  readonly dir?: unknown;
  readonly raw?: unknown;
  readonly encoding?: unknown;
  readonly flags?: unknown;
  readonly bytes?: unknown;
  readonly dropped?: unknown;
  readonly held?: unknown;
  readonly origin?: unknown;
  readonly replaces?: unknown;
  readonly copyOf?: unknown;
  readonly previewOf?: unknown;
  readonly previewLeaks?: unknown;
  readonly teardown?: unknown;
  readonly fate?: unknown;
  readonly heldMs?: unknown;
  readonly pid?: unknown;
  readonly command?: unknown;
  readonly code?: unknown;
  readonly signal?: unknown;
  readonly text?: unknown;
  readonly transport?: unknown;
  readonly peer?: unknown;
  readonly reason?: unknown;
  readonly action?: unknown;
  readonly ruleId?: unknown;
  readonly frameSeq?: unknown;
  readonly detail?: unknown;
  readonly level?: unknown;
  readonly traceId?: unknown;
  readonly spanId?: unknown;
  readonly parentSpanId?: unknown;
  readonly name?: unknown;
  readonly kind?: unknown;
  readonly startMs?: unknown;
  readonly endMs?: unknown;
  readonly attributes?: unknown;
  readonly status?: unknown;
  readonly statusMessage?: unknown;
  readonly service?: unknown;
  readonly truncated?: unknown;
}

function isStrings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (typeof x !== "string") return false;
  return true;
}

const optPositive = (v: unknown) => v === undefined || isPositive(v);
const optText = (v: unknown) => v === undefined || typeof v === "string";

/**
 * True when every field is right: the check every record pays, straight-line and allocation free.
 * Only a record it refuses goes through `faultsOf`, which says what is wrong.
 */
function looksValid(r: Loose): boolean {
  const seq = r.seq;
  const ts = r.ts;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= 0) return false;
  if (typeof ts !== "number" || !Number.isFinite(ts)) return false;
  switch (r.type) {
    case "frame": {
      if (typeof r.raw !== "string" || !isPositive(r.conn)) return false;
      if (r.dir !== "client->agent" && r.dir !== "agent->client") return false;
      if (r.encoding !== undefined && r.encoding !== "base64") return false;
      if (r.bytes !== undefined && !isCount(r.bytes)) return false;
      if (r.dropped !== undefined && r.dropped !== true) return false;
      if (r.held !== undefined && r.held !== true) return false;
      if (r.origin !== undefined && r.origin !== "tap" && r.origin !== "inspector") return false;
      if (r.replaces !== undefined && !isId(r.replaces)) return false;
      if (!optPositive(r.copyOf)) return false;
      if (r.previewOf !== undefined && !isCount(r.previewOf)) return false;
      if (r.previewLeaks !== undefined && !isStrings(r.previewLeaks)) return false;
      const flags = r.flags;
      if (flags === undefined) return true;
      if (!Array.isArray(flags)) return false;
      for (const flag of flags) if (!FLAGS.has(flag)) return false;
      return true;
    }
    case "conn-open":
      return isPositive(r.conn) && typeof r.transport === "string" && optText(r.peer);
    case "conn-close":
      return isPositive(r.conn) && optText(r.reason);
    case "agent-spawn": {
      if (!isPositive(r.pid) || !optPositive(r.conn) || !Array.isArray(r.command)) return false;
      for (const a of r.command) if (typeof a !== "string") return false;
      return true;
    }
    case "agent-exit":
      return (
        isPositive(r.pid) &&
        optPositive(r.conn) &&
        (r.code === null || (typeof r.code === "number" && Number.isSafeInteger(r.code))) &&
        (r.signal === null || typeof r.signal === "string")
      );
    case "agent-stderr":
      return (
        optPositive(r.pid) &&
        typeof r.text === "string" &&
        optPositive(r.conn) &&
        (r.teardown === undefined || r.teardown === true)
      );
    case "fault":
      return (
        typeof r.action === "string" &&
        optText(r.ruleId) &&
        optPositive(r.conn) &&
        (r.frameSeq === undefined || isCount(r.frameSeq)) &&
        optText(r.detail) &&
        (r.fate === undefined || r.fate === "released" || r.fate === "undelivered") &&
        (r.heldMs === undefined || isCount(r.heldMs))
      );
    case "note":
      return LEVELS.has(r.level) && typeof r.text === "string";
    case "agent-span":
      return (
        isHexId(r.traceId, 32) &&
        isHexId(r.spanId, 16) &&
        (r.parentSpanId === undefined || isHexId(r.parentSpanId, 16)) &&
        typeof r.name === "string" &&
        (r.kind === undefined || isSpanKind(r.kind)) &&
        isFiniteNumber(r.startMs) &&
        isFiniteNumber(r.endMs) &&
        (r.attributes === undefined || attributesFault(r.attributes) === undefined) &&
        (r.status === undefined || r.status === "ok" || r.status === "error") &&
        optText(r.statusMessage) &&
        optText(r.service) &&
        optPositive(r.conn) &&
        (r.truncated === undefined || r.truncated === true)
      );
    default:
      return false;
  }
}

/** Every wrong field of a record, field by field (what `recordFaults` runs once its fast check refused one). */
export function faultsOf(r: Record<string, unknown>): RecordFault[] | undefined {
  const f = new Faults();
  if (!RECORD_TYPES.has(r.type)) f.add("type", `is not a record type: ${shown(r.type)}`);
  f.positive(r, "seq", false);
  const ts = r.ts;
  if (!(typeof ts === "number" && Number.isFinite(ts)))
    f.add("ts", ts === undefined ? "missing" : `must be a finite number, got ${shown(ts)}`);
  switch (r.type) {
    case "frame":
      frameFaults(r, f);
      break;
    case "conn-open":
      f.positive(r, "conn", false);
      f.text(r, "transport", false);
      f.text(r, "peer", true);
      break;
    case "conn-close":
      f.positive(r, "conn", false);
      f.text(r, "reason", true);
      break;
    case "agent-spawn":
      f.positive(r, "pid", false);
      f.strings(r, "command");
      f.positive(r, "conn", true);
      break;
    case "agent-exit":
      f.positive(r, "pid", false);
      exitCodeFaults(r, f);
      f.positive(r, "conn", true);
      break;
    case "agent-stderr":
      f.positive(r, "pid", true);
      f.text(r, "text", false);
      f.positive(r, "conn", true);
      f.oneOf(r, "teardown", ONLY_TRUE, true);
      break;
    case "fault":
      f.text(r, "action", false);
      f.text(r, "ruleId", true);
      f.positive(r, "conn", true);
      f.count(r, "frameSeq", true);
      f.text(r, "detail", true);
      f.oneOf(r, "fate", FATES, true);
      f.count(r, "heldMs", true);
      break;
    case "note":
      f.oneOf(r, "level", LEVELS, false);
      f.text(r, "text", false);
      break;
    case "agent-span":
      agentSpanFaults(r, f);
      break;
    default:
      break;
  }
  return f.list;
}

/** The entry kept for a value that is not a valid record, with its faults. */
export function invalidRecord(value: unknown, faults: readonly RecordFault[]): InvalidRecord {
  const r = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = `(${kindOf(value)} that is not JSON)`;
  }
  return new InvalidRecord(
    r && isPositive(r.seq) ? (r.seq as number) : null,
    r && typeof r.type === "string" ? r.type : null,
    faults,
    json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}…` : json,
  );
}

/** Checks any value as a record: the record itself when valid, else its `InvalidRecord` entry. Never throws. */
export function checkRecord(value: unknown): TraceRecord | InvalidRecord {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return invalidRecord(value, [{ field: "record", reason: `must be an object, got ${kindOf(value)}` }]);
  const faults = recordFaults(value as Record<string, unknown>);
  return faults === undefined ? (value as TraceRecord) : invalidRecord(value, faults);
}

/** True for the entry `checkRecord` makes of an invalid record. */
export function isInvalidRecord(v: TraceRecord | InvalidRecord): v is InvalidRecord {
  return v instanceof InvalidRecord;
}

/** One line saying what is wrong: `frame record seq 5: raw must be a string, got number; conn missing`. */
export function describeInvalid(e: InvalidRecord): string {
  const what = `${e.recordType ?? "record"} record${e.seq !== null ? ` seq ${e.seq}` : ""}`;
  return `invalid ${what}: ${e.faults.map((f) => `${f.field} ${f.reason}`).join("; ")}`;
}
