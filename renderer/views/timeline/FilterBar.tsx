/**
 * The timeline's filter bar, one row: the shared search box, a "Filters" menu of shortcuts (method,
 * session, key, outcome, direction, verdict) and the count of rows per verdict, which all edit the
 * same query text, so the text is the one source of truth for the Timeline, Records and Sequence;
 * in presenter mode the Timeline's lifecycle toggle and column menu share the row.
 */
import { memo, type ReactNode, useMemo } from "react";
import { VERDICTS } from "../../../shared/analyzer/verdicts.js";
import { singleValue } from "../../../shared/filter/edit-filter.js";
import { fieldDefinition } from "../../../shared/filter/filter-fields.js";
import { FilterBox } from "../../kit/FilterBox.js";
import { useMenu } from "../../kit/use-dismiss.js";
import { isFiltering, NO_FILTER } from "../../model/filter/timeline-filter.js";
import { useInspector } from "../../model/store/inspector-store.js";
import { unresolvedCount } from "../../model/timeline/unresolved.js";

const OUTCOMES = fieldDefinition("outcome").values ?? [];

function MethodSelect() {
  const requests = useInspector((s) => s.view.requests);
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const value = singleValue(filter, "method");
  const methods = useMemo(() => {
    const set = new Set<string>(["session/prompt"]);
    for (const r of requests) if (r.method) set.add(r.method);
    return [...set].sort();
  }, [requests]);
  return (
    <label>
      Method{" "}
      <select value={value} onChange={(e) => setFilter({ method: e.currentTarget.value })}>
        <option value="">any</option>
        {value !== "" && !methods.includes(value) ? <option value={value}>{value}</option> : null}
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The chips of the verdicts the trace has, with their counts: a click filters by one (again: clears it). */
function VerdictCounts() {
  const counts = useInspector((s) => s.view.verdictCounts);
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const verdict = singleValue(filter, "verdict");
  const submissions = useInspector((s) => s.view.submissions);
  const unresolved = useMemo(() => unresolvedCount(submissions), [submissions]);
  const outcome = singleValue(filter, "outcome");
  return (
    <ul className="verdict-counts" aria-label="Verdict counts">
      {unresolved > 0 ? (
        <li>
          <button
            type="button"
            className="verdict-count verdict-count--client-issue"
            aria-pressed={outcome === "unresolved"}
            title="Submissions the client has no definite answer to yet (pending, lost, dropped and not answered by a retry), or whose last attempt is pending or unknown: outcome:unresolved"
            onClick={() => setFilter({ outcome: outcome === "unresolved" ? "" : "unresolved" })}
          >
            retrying / unresolved: {unresolved}
          </button>
        </li>
      ) : null}
      {VERDICTS.filter((v) => counts[v.name] > 0).map((v) => (
        <li key={v.name}>
          <button
            type="button"
            className={`verdict-count verdict-count--${v.severity}`}
            aria-pressed={verdict === v.name}
            title={v.explanation}
            onClick={() => setFilter({ verdict: verdict === v.name ? "" : v.name })}
          >
            {v.name}: {counts[v.name]}
          </button>
        </li>
      ))}
    </ul>
  );
}

function VerdictSelect() {
  const counts = useInspector((s) => s.view.verdictCounts);
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const verdict = singleValue(filter, "verdict");
  const known = VERDICTS.some((v) => v.name === verdict);
  return (
    <label>
      Verdict{" "}
      <select value={known ? verdict : ""} onChange={(e) => setFilter({ verdict: e.currentTarget.value })}>
        <option value="">any</option>
        {VERDICTS.map((v) => (
          <option key={v.name} value={v.name}>
            {v.name} ({counts[v.name]})
          </option>
        ))}
      </select>
    </label>
  );
}

/** The fields the shortcut menu sets; the button counts the ones in use. */
const SHORTCUT_FIELDS = ["method", "session", "key", "outcome", "direction", "verdict"] as const;

/** "Filters ▾": a panel of one shortcut per field (method, session, key, outcome, direction, verdict). */
function ShortcutMenu() {
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const { open, setOpen, panelId, root, button } = useMenu();
  const inUse = SHORTCUT_FIELDS.filter((f) => filter.terms.some((t) => t.field === f)).length;
  const outcome = singleValue(filter, "outcome");
  const direction = singleValue(filter, "direction");
  const dirValue =
    direction === "client" ? "client->agent" : direction === "agent" ? "agent->client" : direction;
  return (
    <div className="filters__menu" ref={root}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        title="Method, session, key, outcome, direction and verdict: each edits its term in the search box"
        onClick={() => setOpen(!open)}
      >
        Filters{inUse > 0 ? ` (${inUse})` : ""} ▾
      </button>
      {open ? (
        <fieldset id={panelId} className="filters__panel">
          <legend>Filter by field</legend>
          <MethodSelect />
          <label>
            Session{" "}
            <input
              size={12}
              value={singleValue(filter, "session")}
              onChange={(e) => setFilter({ session: e.currentTarget.value })}
            />
          </label>
          <label>
            Key{" "}
            <input
              size={12}
              value={singleValue(filter, "key")}
              onChange={(e) => setFilter({ key: e.currentTarget.value })}
            />
          </label>
          <label>
            Outcome{" "}
            <select
              value={OUTCOMES.includes(outcome) ? outcome : ""}
              onChange={(e) => setFilter({ outcome: e.currentTarget.value })}
            >
              <option value="">any</option>
              {OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
          <label>
            Direction{" "}
            <select
              value={dirValue === "client->agent" || dirValue === "agent->client" ? dirValue : ""}
              onChange={(e) => setFilter({ direction: e.currentTarget.value })}
            >
              <option value="">any</option>
              <option value="client->agent">client → agent</option>
              <option value="agent->client">agent → client</option>
            </select>
          </label>
          <VerdictSelect />
        </fieldset>
      ) : null}
    </div>
  );
}

/**
 * The filter bar above the timeline: one row (the search box, the field menu, the verdict chips,
 * Clear, then whatever the Timeline passes as `children`: its own controls, in presenter mode).
 * Memoised: a live publish re-renders the Timeline, and React would set the search box's
 * attributes again on each render (live.spec.ts watches for that).
 */
export const FilterBar = memo(function FilterBar({ children }: { readonly children?: ReactNode }) {
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  return (
    <search className="filters" aria-label="Timeline filters">
      <FilterBox />
      <ShortcutMenu />
      <VerdictCounts />
      <button
        type="button"
        className="filters__clear"
        disabled={!isFiltering(filter) && filter.text === ""}
        onClick={() => setFilter(NO_FILTER)}
      >
        Clear filters
      </button>
      {children}
    </search>
  );
});
