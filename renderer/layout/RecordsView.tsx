/** The Records tab: every record of the shown trace in arrival order, notifications and lifecycle events included. */
import { useCallback, useMemo } from "react";
import type { TraceRecord } from "../../shared/trace/record.js";
import { InvalidRecord } from "../../shared/trace/record-check.js";
import { Badge } from "../components/Badge.js";
import { EmptyState } from "../components/EmptyState.js";
import { VirtualTable, virtualColumnHelper } from "../components/VirtualTable.js";
import { visibleText } from "../components/visible-text.js";
import { describeRecord } from "../details/describe-record.js";
import { FilterBox } from "../filter/FilterBox.js";
import { matchRecords, recordPasses } from "../filter/record-filter.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import { clockTime } from "../timeline/clock-time.js";
import { compiledFilter, isFiltering, NO_FILTER, type TimelineFilter } from "../timeline/timeline-filter.js";
import { Clock, useTimesUnknown } from "../traces/imported-trace.js";

/** A row: a record, or an entry kept flagged because it is not a valid record. */
type RecordRow = TraceRecord | InvalidRecord;

const col = virtualColumnHelper<RecordRow>();

/** What is wrong with a flagged entry, field by field, then the start of its JSON. */
function flaggedText(e: InvalidRecord): string {
  return `${e.faults.map((f) => `${f.field} ${f.reason}`).join("; ")}: ${e.preview}`;
}

const RECORD_COLUMNS = col.columns([
  col.accessor((r) => (r instanceof InvalidRecord ? (r.seq ?? "?") : r.seq), {
    id: "seq",
    header: "#",
    size: 70,
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
    size: 150,
    cell: (c) => {
      const r = c.row.original;
      if (r instanceof InvalidRecord)
        return <Badge tone="error">{`flagged ${r.recordType ?? "entry"}`.slice(0, 40)}</Badge>;
      if (r.type === "frame") {
        const dir = r.dir === "client->agent" ? "client → agent" : "agent → client";
        return r.dropped ? <Badge tone="error">{`${dir} dropped`}</Badge> : dir;
      }
      return r.type === "fault" ? <Badge tone="warn">fault</Badge> : r.type;
    },
  }),
  col.display({
    id: "text",
    header: "Bytes / event",
    size: 400,
    cell: (c) => {
      const r = c.row.original;
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
  if (columnId === "text") return r.type === "frame" ? r.raw : describeRecord(r);
  if (columnId === "ts") return clockTime(r.ts);
  return "";
}

/** Flagged entries are keyed by their place among the flagged ones (`bad0`, ...): their seq may be missing or repeated. */
const flaggedKeys = new WeakMap<InvalidRecord, string>();
const getKey = (r: RecordRow) => (r instanceof InvalidRecord ? (flaggedKeys.get(r) ?? "bad") : `rec${r.seq}`);

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
    const records = session?.records ?? [];
    const flagged = session?.flagged ?? [];
    if (flagged.length === 0) return records;
    for (const [i, e] of flagged.entries()) flaggedKeys.set(e, `bad${i}`);
    return [...flagged, ...records];
  }, [session, count, flaggedCount]);
  const filtering = isFiltering(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the change signal for the in-place array
  const rows = useMemo<readonly RecordRow[]>(() => {
    if (!filtering) return all;
    const m = matchRecords(session?.records ?? [], view, filter);
    // A flagged entry is no record: it has no fields, and free text looks in what is wrong with it.
    return all.filter((r) =>
      r instanceof InvalidRecord ? filterPassesFlagged(filter, r) : recordPasses(m, r.seq),
    );
  }, [all, filtering, filter, view, session, count]);
  const total = count + flaggedCount;
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
      <VirtualTable
        label="Trace records"
        rows={rows}
        count={filtering ? rows.length : total}
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
    </>
  );
}
