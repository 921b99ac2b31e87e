/**
 * The shared filter applied to trace records (the Records tab and the Sequence view), so they
 * narrow the way the Timeline does. Each record is judged on its own:
 * - a frame of a Timeline row (a submission's attempt, a request and its response, a malformed
 *   frame) has that row's method, session, key, outcome, verdict and id, so a field-only query
 *   shows exactly the frames of the Timeline rows it shows; its direction, connection and origin
 *   are its own;
 * - any other frame (a notification) has the method, sessionId and id its JSON names;
 * - a connection, agent, fault or note record has its connection, when it names one, and nothing else;
 * - free text looks in a frame's bytes, and in the description of any other record.
 * The search text is built once per record and kept, not per keystroke.
 */
import type { FilterField } from "../../../shared/filter/filter-fields.js";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import type { TimelineView } from "../traces/timeline-view.js";
import { describeRecord } from "./describe-record.js";
import { compiledFilter, rowValues, type TimelineFilter, type TopRow } from "./timeline-filter.js";

/** Which records a filter matches: `mask[seq]` is 1 for a match. */
export interface RecordMatch {
  /** False when the filter applies no term (every record matches; `mask` is empty). */
  readonly active: boolean;
  readonly mask: Uint8Array;
  /** How many records matched. */
  readonly matched: number;
}

const NONE: readonly string[] = [];
const owners = new WeakMap<TimelineView, (TopRow | undefined)[]>();

/** The Timeline row owning each frame seq of a view; built once per view. */
function ownersOf(view: TimelineView): (TopRow | undefined)[] {
  let out = owners.get(view);
  if (out) return out;
  out = [];
  for (const row of view.submissions) {
    const top: TopRow = { kind: "submission", row };
    for (const a of row.attempts) for (const seq of a.frameSeqs) out[seq] = top;
  }
  for (const row of view.requests) {
    const top: TopRow = { kind: "request", row };
    if (row.requestSeq !== null) out[row.requestSeq] = top;
    if (row.responseSeq !== null) out[row.responseSeq] = top;
  }
  for (const row of view.malformed) out[row.seq] = { kind: "malformed", row };
  owners.set(view, out);
  return out;
}

const texts = new WeakMap<TraceRecord, string>();

/** A record's lower-cased search text: a frame's bytes, another record's description. */
export function recordText(r: TraceRecord): string {
  let t = texts.get(r);
  if (t === undefined) {
    t = (r.type === "frame" ? r.raw : describeRecord(r)).toLowerCase();
    texts.set(r, t);
  }
  return t;
}

interface OwnFields {
  readonly method: string | null;
  readonly session: string | null;
  readonly id: string | null;
}
const parsed = new WeakMap<FrameRecord, OwnFields>();

/** What a frame outside every Timeline row (a notification) names: method, params.sessionId, id. */
function ownFields(r: FrameRecord): OwnFields {
  let f = parsed.get(r);
  if (f) return f;
  let msg: unknown;
  try {
    msg = r.encoding === "base64" ? null : JSON.parse(r.raw);
  } catch {
    msg = null;
  }
  const o = msg !== null && typeof msg === "object" ? (msg as Record<string, unknown>) : {};
  const params =
    o.params !== null && typeof o.params === "object" ? (o.params as Record<string, unknown>) : {};
  f = {
    method: typeof o.method === "string" ? o.method : null,
    session: typeof params.sessionId === "string" ? params.sessionId : null,
    id: typeof o.id === "string" || typeof o.id === "number" ? String(o.id) : null,
  };
  parsed.set(r, f);
  return f;
}

/** A record's values for one field. */
export function recordValues(
  r: TraceRecord,
  owner: TopRow | undefined,
  field: FilterField,
): readonly string[] {
  if (r.type !== "frame") {
    if (field === "connection" && "conn" in r && r.conn !== undefined) return [String(r.conn)];
    return NONE;
  }
  if (field === "direction") return [r.dir];
  if (field === "connection") return [String(r.conn)];
  if (field === "origin") return [r.origin ?? "peer"];
  if (owner) return rowValues(owner, field);
  const own = ownFields(r);
  const v =
    field === "method" ? own.method : field === "session" ? own.session : field === "id" ? own.id : null;
  return v === null ? NONE : [v];
}

const EMPTY_MASK = new Uint8Array(0);

/** Matches every record against the filter. */
export function matchRecords(
  records: readonly TraceRecord[],
  view: TimelineView,
  filter: TimelineFilter,
): RecordMatch {
  const c = compiledFilter(filter);
  if (!c.active) return { active: false, mask: EMPTY_MASK, matched: records.length };
  const own = ownersOf(view);
  let max = 0;
  for (const r of records) if (r.seq > max) max = r.seq;
  const mask = new Uint8Array(max + 1);
  let matched = 0;
  for (const r of records) {
    const owner = r.type === "frame" ? own[r.seq] : undefined;
    if (
      c.test(
        (field) => recordValues(r, owner, field),
        () => recordText(r),
      )
    ) {
      mask[r.seq] = 1;
      matched++;
    }
  }
  return { active: true, mask, matched };
}

/** Whether a record passes (after `matchRecords`). */
export function recordPasses(m: RecordMatch, seq: number): boolean {
  return !m.active || m.mask[seq] === 1;
}
