/**
 * The Records tab: every record of the shown trace in arrival order, notifications and lifecycle
 * events included; each request paired with its answer (the Pair column names the other half, the
 * method is on both, the latency on the answer), and a run of streamed chunks folded into one row
 * with its count, size and whether it is still arriving.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import {
  ChunkFolder,
  type ChunkRun,
  type FoldedRecord,
  isChunkRun,
  stillArriving,
} from "../../../shared/analyzer/chunk-runs.js";
import {
  pairSentence,
  pairWords,
  type RecordPair,
  recordPairs,
} from "../../../shared/analyzer/record-pairs.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { InvalidRecord } from "../../../shared/trace/record-check.js";
import { Badge } from "../../kit/Badge.js";
import { EmptyState } from "../../kit/EmptyState.js";
import { FilterBox } from "../../kit/FilterBox.js";
import { Clock } from "../../kit/ImportedTrace.js";
import { VirtualTable } from "../../kit/VirtualTable.js";
import { virtualColumnHelper } from "../../kit/virtual-columns.js";
import { describeRecord } from "../../model/filter/describe-record.js";
import { matchRecords, recordPasses } from "../../model/filter/record-filter.js";
import {
  compiledFilter,
  isFiltering,
  NO_FILTER,
  type TimelineFilter,
} from "../../model/filter/timeline-filter.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { clockTime } from "../../model/text/clock-time.js";
import { visibleText } from "../../model/text/visible-text.js";
import { useTimesUnknown } from "../../model/traces/imported-trace.js";

/** A row: a record, a folded run of chunk records, or an entry kept flagged because it is not a valid record. */
type RecordRow = FoldedRecord | InvalidRecord;

/** What the rows' cells read besides the row: the request/answer pairs and whether chunks still arrive. */
interface RecordFacts {
  readonly pairs: ReadonlyMap<number, RecordPair>;
  readonly arriving: (run: ChunkRun) => boolean;
}
const NO_RECORD_FACTS: RecordFacts = { pairs: new Map(), arriving: () => false };
const RecordFactsContext = createContext<RecordFacts>(NO_RECORD_FACTS);

/** A run's size in words: "1.2 kB". */
function sizeText(chars: number): string {
  return chars < 1024 ? `${chars} B` : `${(chars / 1024).toFixed(1)} kB`;
}

/** A folded run's words: kind, count, size, and whether it is still arriving. */
function runText(run: ChunkRun, arriving: boolean): string {
  return `${run.kind} × ${run.count} (#${run.seq}–#${run.lastSeq}), ${sizeText(run.bytes)}, ${arriving ? "still arriving" : "ended"}`;
}

function PairCell({ seq }: { seq: number }) {
  const p = useContext(RecordFactsContext).pairs.get(seq);
  return p ? <span title={visibleText(pairSentence(p))}>{pairWords(p)}</span> : null;
}

function MethodCell({ seq }: { seq: number }) {
  const p = useContext(RecordFactsContext).pairs.get(seq);
  return p ? visibleText(p.method) : null;
}

function LatencyCell({ seq }: { seq: number }) {
  const p = useContext(RecordFactsContext).pairs.get(seq);
  if (p?.role !== "answer" || p.latencyMs === null) return null;
  return <>{Math.round(p.latencyMs)} ms</>;
}

function RunCell({ run }: { run: ChunkRun }) {
  const arriving = useContext(RecordFactsContext).arriving(run);
  return (
    <span className="records-run">
      <Badge tone={arriving ? "info" : "neutral"}>{arriving ? "still arriving" : "ended"}</Badge>{" "}
      <code className="tl-raw">{visibleText(runText(run, arriving))}</code>
    </span>
  );
}

const col = virtualColumnHelper<RecordRow>();

/** What is wrong with a flagged entry, field by field, then the start of its JSON. */
function flaggedText(e: InvalidRecord): string {
  return `${e.faults.map((f) => `${f.field} ${f.reason}`).join("; ")}: ${e.preview}`;
}

const RECORD_COLUMNS = col.columns([
  col.accessor((r) => (r instanceof InvalidRecord ? (r.seq ?? "?") : r.seq), {
    id: "seq",
    header: "#",
    // the whole record number of a million-record trace: "1002345"
    size: 92,
  }),
  col.display({
    id: "ts",
    header: "Time",
    // Wide enough for the milliseconds: "12:03:04.123".
    size: 125,
    cell: (c) => {
      const r = c.row.original;
      return r instanceof InvalidRecord ? "" : <Clock ts={r.ts} unknown="unknown" />;
    },
  }),
  col.accessor(
    (r) => (!(r instanceof InvalidRecord) && "conn" in r && r.conn !== undefined ? `#${r.conn}` : ""),
    {
      id: "conn",
      header: "Conn",
      size: 60,
    },
  ),
  col.display({
    id: "type",
    header: "Record",
    size: 130,
    cell: (c) => {
      const r = c.row.original;
      if (r instanceof InvalidRecord)
        return <Badge tone="error">{`flagged ${r.recordType ?? "entry"}`.slice(0, 40)}</Badge>;
      if (isChunkRun(r)) return "agent → client";
      if (r.type === "frame") {
        const dir = r.dir === "client->agent" ? "client → agent" : "agent → client";
        return r.dropped ? <Badge tone="error">{`${dir} dropped`}</Badge> : dir;
      }
      return r.type === "fault" ? <Badge tone="warn">fault</Badge> : r.type;
    },
  }),
  col.display({
    id: "method",
    header: "Method",
    size: 140,
    cell: (c) => {
      const r = c.row.original;
      if (isChunkRun(r)) return "session/update";
      return r instanceof InvalidRecord || r.type !== "frame" ? null : <MethodCell seq={r.seq} />;
    },
  }),
  col.display({
    id: "pair",
    header: "Pair",
    // "→ #1002003": the other half's record number, whole
    size: 125,
    cell: (c) => {
      const r = c.row.original;
      return r instanceof InvalidRecord || isChunkRun(r) || r.type !== "frame" ? null : (
        <PairCell seq={r.seq} />
      );
    },
  }),
  col.display({
    id: "latency",
    header: "Latency",
    size: 80,
    cell: (c) => {
      const r = c.row.original;
      return r instanceof InvalidRecord || isChunkRun(r) || r.type !== "frame" ? null : (
        <LatencyCell seq={r.seq} />
      );
    },
  }),
  col.display({
    id: "text",
    header: "Bytes / event",
    size: 400,
    cell: (c) => {
      const r = c.row.original;
      if (isChunkRun(r)) return <RunCell run={r} />;
      return (
        <code className="tl-raw">
          {visibleText(r instanceof InvalidRecord ? flaggedText(r) : describeRecord(r))}
        </code>
      );
    },
  }),
]);

/** Whether a flagged entry passes: it has no field values; free text looks in what is wrong with it. */
function filterPassesFlagged(filter: TimelineFilter, e: InvalidRecord): boolean {
  const text = flaggedText(e).toLowerCase();
  return compiledFilter(filter).test(
    () => [],
    () => text,
  );
}

/** A record's full text per column: the tooltip of a cut cell. */
function recordText(columnId: string, r: RecordRow): string {
  if (r instanceof InvalidRecord) return columnId === "text" ? flaggedText(r) : "";
  if (isChunkRun(r)) return columnId === "text" ? runText(r, false) : "";
  if (columnId === "text") return r.type === "frame" ? r.raw : describeRecord(r);
  if (columnId === "ts") return clockTime(r.ts);
  return "";
}

/** Flagged entries are keyed by their place among the flagged ones (`bad0`, ...): their seq may be missing or repeated. */
const flaggedKeys = new WeakMap<InvalidRecord, string>();
const getKey = (r: RecordRow) => (r instanceof InvalidRecord ? (flaggedKeys.get(r) ?? "bad") : `rec${r.seq}`);

/** The chunk folder of each trace's records, and how many of them it read (records grow in place; Clear empties them). */
const folders = new WeakMap<object, { folder: ChunkFolder; read: number; records: readonly TraceRecord[] }>();

/** The trace's records with its chunk runs folded, brought up to date with the records added since the last call. */
function foldedRecords(key: object, records: readonly TraceRecord[]): readonly FoldedRecord[] {
  let f = folders.get(key);
  if (!f || f.records !== records || records.length < f.read) {
    f = { folder: new ChunkFolder(), read: 0, records };
    folders.set(key, f);
  }
  for (; f.read < records.length; f.read++) f.folder.add(records[f.read] as TraceRecord);
  return f.folder.rows;
}

/** The records list of the shown trace, narrowed by the shared filter (the Timeline's and Sequence's too). */
export function RecordsView() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.records);
  const view = useInspector((s) => s.view);
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const selectedKey = useInspector((s) => s.selected?.key);
  const select = useInspector((s) => s.select);
  const largeText = useInspector((s) => s.largeText);
  const prefs = useInspector((s) => s.tablePrefs.records);
  const setTablePrefs = useInspector((s) => s.setTablePrefs);
  const timesUnknown = useTimesUnknown();
  const cellText = useCallback(
    (id: string, r: RecordRow) => (timesUnknown && id === "ts" ? "unknown" : recordText(id, r)),
    [timesUnknown],
  );
  const flaggedCount = useInspector((s) => s.view.flagged);
  const session = traceId === undefined ? undefined : catalog.get(traceId);
  // Flagged entries first, so a few bad ones among a million records are on screen; the arrays grow in place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the counts are the change signal for the in-place arrays
  const all = useMemo<readonly RecordRow[]>(() => {
    const records = session ? foldedRecords(session, session.records) : [];
    const flagged = session?.flagged ?? [];
    if (flagged.length === 0) return records;
    for (const [i, e] of flagged.entries()) flaggedKeys.set(e, `bad${i}`);
    return [...flagged, ...records];
  }, [session, count, flaggedCount]);
  // A run shown as still arriving turns to "ended" when no chunk came for a while, publish or not.
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` re-reads the clock for the runs still arriving
  const facts = useMemo<RecordFacts>(() => {
    const records = session?.records ?? [];
    const newest = records[records.length - 1];
    const live = session?.source === "live";
    return {
      pairs: recordPairs(view.submissions, view.requests),
      arriving: (run) => stillArriving(run, live, newest?.seq ?? -1, Date.now()),
    };
  }, [view, session, tick]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a publish (`view`) or a tick starts the wait again
  useEffect(() => {
    if (session?.source !== "live") return;
    const t = setTimeout(() => setTick((n) => n + 1), 2100);
    return () => clearTimeout(t);
  }, [session, view, tick]);
  const filtering = isFiltering(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the change signal for the in-place array
  const rows = useMemo<readonly RecordRow[]>(() => {
    if (!filtering) return all;
    const m = matchRecords(session?.records ?? [], view, filter);
    // A flagged entry is no record: it has no fields, and free text looks in what is wrong with it.
    // A run passes when any of its chunks does.
    return all.filter((r) =>
      r instanceof InvalidRecord
        ? filterPassesFlagged(filter, r)
        : isChunkRun(r)
          ? runPasses(m, r)
          : recordPasses(m, r.seq),
    );
  }, [all, filtering, filter, view, session, count]);
  const total = count + flaggedCount;
  // folded: chunk runs are one row each
  const shownCount = all.length;
  const onSelect = useCallback((r: RecordRow) => select({ key: getKey(r), seq: r.seq ?? 0 }), [select]);
  return (
    <>
      <search className="view-filter" aria-label="Records filter">
        <FilterBox placeholder="text in records, or method:session/prompt -verdict:single" />
        <span className="view-filter__count" role="status" aria-label="Records shown">
          {filtering ? `${rows.length} of ${total} records match` : `${total} records`}
        </span>
        <button type="button" disabled={filter.text === ""} onClick={() => setFilter(NO_FILTER)}>
          Clear filters
        </button>
      </search>
      <RecordFactsContext.Provider value={facts}>
        <VirtualTable
          label="Trace records"
          rows={rows}
          count={filtering ? rows.length : shownCount}
          getKey={getKey}
          columns={RECORD_COLUMNS}
          selectedKey={selectedKey}
          onSelect={onSelect}
          rowHeight={largeText ? 36 : 28}
          prefs={prefs}
          onPrefsChange={(p) => setTablePrefs("records", p)}
          cellText={cellText}
          empty={
            filtering && total > 0 ? (
              <EmptyState title="No record matches the filter">
                <p>
                  Every record of this trace is hidden by the filter above. Press Clear filters to see all{" "}
                  {total}.
                </p>
              </EmptyState>
            ) : (
              <EmptyState title="No records yet">
                <p>
                  Every frame of the shown trace, notifications included, plus connection, agent and fault
                  events.
                </p>
              </EmptyState>
            )
          }
        />
      </RecordFactsContext.Provider>
    </>
  );
}

/** Whether any chunk of a run passes the filter. */
function runPasses(m: Parameters<typeof recordPasses>[0], run: ChunkRun): boolean {
  for (let seq = run.seq; seq <= run.lastSeq; seq++) if (recordPasses(m, seq)) return true;
  return false;
}
