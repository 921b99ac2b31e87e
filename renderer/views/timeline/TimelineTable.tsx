/**
 * The Timeline tab: submissions, other requests and malformed frames, expandable into attempts and
 * frames, with lifecycle and fault events among them (a toggle); columns resizable, hideable and
 * sortable, their setup remembered.
 */
import "./timeline.css";
import { memo, useCallback, useEffect, useMemo, useState } from "react";
import { ColumnMenu } from "../../kit/ColumnMenu.js";
import { EmptyState } from "../../kit/EmptyState.js";
import { usePresenter } from "../../kit/theme/presenter.js";
import { VirtualTable } from "../../kit/VirtualTable.js";
import { columnName } from "../../kit/virtual-columns.js";
import { isFiltering, NO_FILTER } from "../../model/filter/timeline-filter.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { NO_PREFS } from "../../model/store/table-prefs.js";
import { clearedWords } from "../../model/text/cleared-words.js";
import { firstProblemRow } from "../../model/timeline/problems-first.js";
import { searchIndexOf } from "../../model/timeline/search-index.js";
import { prepareSearchText } from "../../model/timeline/search-prep.js";
import {
  displayRows,
  type RowOrder,
  rawOfRecord,
  TIME_ORDER,
  type TimelineRow,
  topLevelOf,
  topRows,
} from "../../model/timeline/timeline-rows.js";
import { eventsOf } from "../../model/timeline/trace-events.js";
import { useTimesUnknown } from "../../model/traces/imported-trace.js";
import { RowFaultMenu, type RowMenuAt, RowMenuContext } from "../faults/RowFaultMenu.js";
import { hasFaultMenu } from "../faults/row-faults.js";
import { cellText } from "./cell-text.js";
import { resultLines, verdictLines, whatLines } from "./column-fit.js";
import { SORTABLE_COLUMNS, sortValue } from "./column-sort.js";
import { METHOD_WIDTH, RESULT_WIDTH, TIMELINE_CSS_VARS, VERDICT_WIDTH } from "./column-widths.js";
import { FilterBar } from "./FilterBar.js";
import { RowFactsContext, rowFacts, spanOfRow } from "./row-facts.js";
import {
  TIMELINE_COLUMNS,
  TIMELINE_HEADER_NOTES,
  TIMELINE_PINNED,
  timelineHiddenByDefault,
} from "./timeline-columns.js";

/** The imported traces already opened on their first problem (once per trace: the user's own selection wins after). */
const openedOnProblem = new WeakSet<object>();

/** The columns the column menu lists (every one but the fault menu's). */
const MENU_COLUMNS = TIMELINE_COLUMNS.filter((c) => c.enableHiding !== false).map((c) => ({
  id: c.id as string,
  name: columnName(c.header, c.id as string),
}));

const getKey = (r: TimelineRow) => r.key;
const depthOf = (r: TimelineRow) => r.depth;
/** Event rows get a class, so their cells' CSS needs no `:has()` (costly to match on every new row). */
const rowClassOf = (r: TimelineRow) => (r.kind === "event" ? "tl-row--event" : undefined);

/**
 * The lifecycle events' checkbox, rendered again only when it changes: React sets a controlled
 * input's attributes again on each render, and the table renders with each live publish.
 */
const LifecycleToggle = memo(function LifecycleToggle(p: {
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label
      className="tl-bar__toggle"
      title="Show the agent's spawns, exits and kills, connections opening and closing, and faults applied as rows among the requests, in time order"
    >
      <input type="checkbox" checked={p.checked} onChange={(e) => p.onChange(e.currentTarget.checked)} />
      Lifecycle events
    </label>
  );
});

/** The timeline grid with its explanation while empty. */
export function TimelineTable() {
  const { catalog } = useInspectorContext();
  const view = useInspector((s) => s.view);
  const traceId = useInspector((s) => s.traceId);
  const lastClear = useInspector((s) => s.lastClear);
  const filter = useInspector((s) => s.filter);
  const expanded = useInspector((s) => s.expanded);
  const selectedKey = useInspector((s) => s.selected?.key);
  const select = useInspector((s) => s.select);
  const setExpanded = useInspector((s) => s.setExpanded);
  const largeText = useInspector((s) => s.largeText);
  const setFilter = useInspector((s) => s.setFilter);
  const showLifecycle = useInspector((s) => s.showLifecycle);
  const setShowLifecycle = useInspector((s) => s.setShowLifecycle);
  const prefs = useInspector((s) => s.tablePrefs.timeline);
  const setTablePrefs = useInspector((s) => s.setTablePrefs);
  const timesKnown = !useTimesUnknown();

  const tops = useMemo(() => topRows(view), [view]);
  // The rows' search text is built in idle time as they arrive, not in the first search's keystroke.
  useEffect(() => {
    const session = traceId === undefined ? undefined : catalog.get(traceId);
    if (!session || tops.length === 0) return;
    return prepareSearchText(
      tops,
      rawOfRecord((seq) => session.recordBySeq(seq)),
    );
  }, [tops, catalog, traceId]);
  const sort = prefs.sorting[0];
  const sortId = sort !== undefined && SORTABLE_COLUMNS.has(sort.id) ? sort.id : undefined;
  const sortDesc = sort?.desc === true;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `view` is the change signal for the session's growing records and events
  const { rows, facts } = useMemo(() => {
    const session = traceId === undefined ? undefined : catalog.get(traceId);
    const recordOf = (seq: number) => session?.recordBySeq(seq);
    const tsOf = (seq: number) => recordOf(seq)?.ts;
    const events = session ? eventsOf(session) : undefined;
    const now = session?.records[session.records.length - 1]?.ts;
    const base = rowFacts({ timesKnown, tsOf, events, rows: [], now });
    const order: RowOrder =
      sortId === undefined || sortId === "time"
        ? { by: "time", desc: sortId === "time" && sortDesc }
        : { by: "value", desc: sortDesc, value: (r) => sortValue(sortId, r, base) };
    const active = isFiltering(filter) ? filter : undefined;
    const shown = displayRows(tops, active, expanded, recordOf, {
      events: showLifecycle ? events?.list : undefined,
      groupEvents: events?.list,
      order: order.by === "time" && !order.desc ? TIME_ORDER : order,
    });
    // The shown rows' spans from the search index (kept per row there), not looked up row by row.
    const topSpans = timesKnown
      ? searchIndexOf(topLevelOf(tops)).spansOf(active, rawOfRecord(recordOf), (r) => spanOfRow(r, base))
      : undefined;
    // Only event rows can be shown rows whose spans topSpans lacks (top-level events: shown and no filter).
    const eventRows = showLifecycle && active === undefined ? shown : [];
    return {
      rows: shown,
      facts: rowFacts({ timesKnown, tsOf, events, rows: topSpans ? eventRows : shown, now, topSpans }),
    };
  }, [tops, filter, expanded, catalog, traceId, view, showLifecycle, timesKnown, sortId, sortDesc]);
  const textOf = useCallback((id: string, r: TimelineRow) => cellText(id, r, facts), [facts]);

  // Problems first: an import, once all its rows are in, opens on its first submission with the
  // worst verdict (or its first submission), selected and scrolled into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `view` is the change signal for the import's end
  useEffect(() => {
    const session = traceId === undefined ? undefined : catalog.get(traceId);
    if (session?.source !== "imported" || !session.imported || openedOnProblem.has(session)) return;
    openedOnProblem.add(session);
    if (selectedKey !== undefined) return;
    const pick = firstProblemRow(tops);
    if (pick) select({ key: pick.key, seq: pick.seq });
  }, [tops, catalog, traceId, view, selectedKey, select]);

  const [menu, setMenu] = useState<RowMenuAt | null>(null);
  const closeMenu = useCallback(() => {
    setMenu(null);
    document.querySelector<HTMLElement>('[aria-label="Timeline"]')?.focus();
  }, []);
  const onRowMenu = useCallback((row: TimelineRow, at: { x: number; y: number }) => {
    if (hasFaultMenu(row)) setMenu({ row, ...at });
  }, []);

  const hidden = useMemo(
    // a request shown between an opened submission's attempts is not hidden
    () =>
      tops.length - rows.filter((r) => r.kind !== "event" && (r.depth === 0 || r.kind === "request")).length,
    [tops, rows],
  );
  const visibility = prefs.visibility;
  const present = usePresenter();
  const hiddenByDefault = useMemo(() => timelineHiddenByDefault(present, window.innerWidth), [present]);
  const isVisible = useCallback(
    (id: string) => visibility[id] ?? !hiddenByDefault.includes(id),
    [visibility, hiddenByDefault],
  );

  // A row is as many lines tall as its tallest cell: Result words that need two lines, a Verdict
  // cell of more than one badge (or a badge that wraps), a method name that wraps.
  const rowHeight = largeText ? 36 : 28;
  const resultWidth = isVisible("result") ? (prefs.sizing.result ?? RESULT_WIDTH) : 0;
  const verdictWidth = isVisible("verdict") ? (prefs.sizing.verdict ?? VERDICT_WIDTH) : 0;
  const whatWidth = isVisible("what") ? (prefs.sizing.what ?? METHOD_WIDTH) : 0;
  const rowHeightOf = useCallback(
    (r: TimelineRow) => {
      const lines = Math.max(
        resultWidth > 0 ? resultLines(r, resultWidth) : 1,
        verdictWidth > 0 ? verdictLines(r, verdictWidth) : 1,
        whatWidth > 0 ? whatLines(r, whatWidth) : 1,
      );
      return rowHeight + (lines - 1) * Math.round(rowHeight * 0.6);
    },
    [resultWidth, verdictWidth, whatWidth, rowHeight],
  );

  const onSelect = useCallback((r: TimelineRow) => select({ key: r.key, seq: r.seq }), [select]);
  const onExpand = useCallback((r: TimelineRow, open: boolean) => setExpanded(r.key, open), [setExpanded]);
  const isExpanded = useCallback(
    (r: TimelineRow) => (r.expandable ? expanded.has(r.key) : undefined),
    [expanded],
  );

  // The table's own controls: a row of their own above the table, or at the end of the filter
  // bar's row in presenter mode, where height is scarcest and the view has the full width.
  // The same element across live publishes, so the memoised filter bar holding it is not rendered again.
  const tableControls = useMemo(
    () => (
      <>
        <LifecycleToggle checked={showLifecycle} onChange={setShowLifecycle} />
        <ColumnMenu
          table="Timeline"
          columns={MENU_COLUMNS}
          isVisible={isVisible}
          onToggle={(id, on) =>
            setTablePrefs("timeline", { ...prefs, visibility: { ...prefs.visibility, [id]: on } })
          }
          onReset={() => setTablePrefs("timeline", NO_PREFS)}
        />
      </>
    ),
    [showLifecycle, setShowLifecycle, isVisible, prefs, setTablePrefs],
  );

  return (
    <RowMenuContext.Provider value={setMenu}>
      {menu ? <RowFaultMenu at={menu} onClose={closeMenu} /> : null}
      <FilterBar>{present ? tableControls : null}</FilterBar>
      {present ? null : <div className="tl-bar">{tableControls}</div>}
      {showLifecycle && sortId !== undefined && sortId !== "time" ? (
        <p className="tl-note muted" role="note">
          Sorted by {MENU_COLUMNS.find((c) => c.id === sortId)?.name ?? sortId}: lifecycle events show in time
          order only.
        </p>
      ) : null}
      {hidden > 0 ? (
        <p className="filter-hidden" role="status" aria-label="Rows hidden by filters">
          {hidden === tops.length ? "All " : ""}
          {hidden} {hidden === 1 ? "row" : "rows"} hidden by filters —{" "}
          <button type="button" onClick={() => setFilter(NO_FILTER)}>
            Clear
          </button>
        </p>
      ) : null}
      <RowFactsContext.Provider value={facts}>
        <VirtualTable
          label="Timeline"
          rows={rows}
          getKey={getKey}
          columns={TIMELINE_COLUMNS}
          headerNotes={TIMELINE_HEADER_NOTES}
          pinned={TIMELINE_PINNED}
          cssVars={TIMELINE_CSS_VARS}
          selectedKey={selectedKey}
          onSelect={(r) => {
            // A click on the selected row toggles it open or closed; the keyboard uses Right/Left/Enter.
            if (r.key === selectedKey && r.expandable) onExpand(r, !expanded.has(r.key));
            onSelect(r);
          }}
          onExpand={onExpand}
          onRowMenu={onRowMenu}
          isExpanded={isExpanded}
          depthOf={depthOf}
          rowClassOf={rowClassOf}
          rowHeight={rowHeight}
          rowHeightOf={rowHeightOf}
          prefs={prefs}
          sortable
          onPrefsChange={(p) => setTablePrefs("timeline", p)}
          hiddenByDefault={hiddenByDefault}
          cellText={textOf}
          empty={
            isFiltering(filter) && tops.length > 0 ? (
              <EmptyState title="No row matches the filters">
                <p>
                  Every row of this trace is hidden by the filters above. Press Clear to see all {tops.length}{" "}
                  of them.
                </p>
              </EmptyState>
            ) : lastClear?.traceId === traceId ? (
              <EmptyState title={`${clearedWords(lastClear?.records ?? 0)}.`}>
                {traceId !== undefined && catalog.get(traceId)?.source === "live" ? (
                  <p>
                    New records of this trace appear here as they arrive. The cleared ones are still in the
                    hub's trace file: Export saves it whole.
                  </p>
                ) : (
                  <p>The cleared records are still in the file you imported: import it again to see them.</p>
                )}
              </EmptyState>
            ) : (
              <EmptyState title="No frames yet">
                <p>
                  One row per prompt submission (all attempts sharing a sessionId and idempotencyKey), one per
                  other request with its retry class, and one per malformed frame. Expand a submission to see
                  its attempts, and an attempt to see its frames.
                </p>
                <p>
                  Rows appear as soon as a client talks to an agent through{" "}
                  <code>acp-retry-inspector proxy</code>. To look at an earlier session, use{" "}
                  <strong>Import…</strong> in the toolbar or drop a trace file (.jsonl) anywhere on this
                  window.
                </p>
              </EmptyState>
            )
          }
        />
      </RowFactsContext.Provider>
    </RowMenuContext.Provider>
  );
}
