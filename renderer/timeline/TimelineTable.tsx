/** The Timeline tab: submissions, other requests and malformed frames, expandable into attempts and frames. */
import { useCallback, useMemo, useState } from "react";
import { EmptyState } from "../components/EmptyState.js";
import { VirtualTable } from "../components/VirtualTable.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import { RowFaultMenu, type RowMenuAt, RowMenuContext } from "./RowFaultMenu.js";
import { hasFaultMenu } from "./row-faults.js";
import { TIMELINE_COLUMNS } from "./timeline-columns.js";
import { isFiltering, NO_FILTER } from "./timeline-filter.js";
import { displayRows, type TimelineRow, topRows } from "./timeline-rows.js";

const getKey = (r: TimelineRow) => r.key;
const depthOf = (r: TimelineRow) => r.depth;

/** The timeline grid with its explanation while empty. */
export function TimelineTable() {
  const { catalog } = useInspectorContext();
  const view = useInspector((s) => s.view);
  const traceId = useInspector((s) => s.traceId);
  const filter = useInspector((s) => s.filter);
  const expanded = useInspector((s) => s.expanded);
  const selectedKey = useInspector((s) => s.selected?.key);
  const select = useInspector((s) => s.select);
  const setExpanded = useInspector((s) => s.setExpanded);
  const largeText = useInspector((s) => s.largeText);
  const setFilter = useInspector((s) => s.setFilter);

  const tops = useMemo(() => topRows(view), [view]);
  const rows = useMemo(() => {
    const session = traceId === undefined ? undefined : catalog.get(traceId);
    const recordOf = (seq: number) => session?.recordBySeq(seq);
    return displayRows(tops, isFiltering(filter) ? filter : undefined, expanded, recordOf);
  }, [tops, filter, expanded, catalog, traceId]);

  const [menu, setMenu] = useState<RowMenuAt | null>(null);
  const closeMenu = useCallback(() => {
    setMenu(null);
    document.querySelector<HTMLElement>('[aria-label="Timeline"]')?.focus();
  }, []);
  const onRowMenu = useCallback((row: TimelineRow, at: { x: number; y: number }) => {
    if (hasFaultMenu(row)) setMenu({ row, ...at });
  }, []);

  const hidden = useMemo(() => tops.length - rows.filter((r) => r.depth === 0).length, [tops, rows]);

  const onSelect = useCallback((r: TimelineRow) => select({ key: r.key, seq: r.seq }), [select]);
  const onExpand = useCallback((r: TimelineRow, open: boolean) => setExpanded(r.key, open), [setExpanded]);
  const isExpanded = useCallback(
    (r: TimelineRow) => (r.expandable ? expanded.has(r.key) : undefined),
    [expanded],
  );

  return (
    <RowMenuContext.Provider value={setMenu}>
      {menu ? <RowFaultMenu at={menu} onClose={closeMenu} /> : null}
      {hidden > 0 ? (
        <p className="filter-hidden" role="status" aria-label="Rows hidden by filters">
          {hidden === tops.length ? "All " : ""}
          {hidden} {hidden === 1 ? "row" : "rows"} hidden by filters —{" "}
          <button type="button" onClick={() => setFilter(NO_FILTER)}>
            Clear
          </button>
        </p>
      ) : null}
      <VirtualTable
        label="Timeline"
        rows={rows}
        getKey={getKey}
        columns={TIMELINE_COLUMNS}
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
        rowHeight={largeText ? 36 : 28}
        empty={
          isFiltering(filter) && tops.length > 0 ? (
            <EmptyState title="No row matches the filters">
              <p>
                Every row of this trace is hidden by the filters above. Press Clear to see all {tops.length}{" "}
                of them.
              </p>
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
                <strong>Import…</strong> in the toolbar or drop a trace file (.jsonl) anywhere on this window.
              </p>
            </EmptyState>
          )
        }
      />
    </RowMenuContext.Provider>
  );
}
