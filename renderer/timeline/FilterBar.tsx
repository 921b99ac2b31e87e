/** The timeline's filters and the count of rows per verdict (a count is a one-click verdict filter). */
import { useMemo } from "react";
import type { OutcomeKind } from "../../shared/analyzer/timeline-model.js";
import { VERDICTS, type VerdictName } from "../../shared/analyzer/verdicts.js";
import type { Direction } from "../../shared/trace/record.js";
import { useInspector } from "../store/inspector-store.js";
import { isFiltering, NO_FILTER } from "./timeline-filter.js";

const OUTCOMES: readonly OutcomeKind[] = [
  "pending",
  "inserted",
  "answered",
  "error",
  "cancelled",
  "lost",
  "dropped",
];

function MethodSelect() {
  const requests = useInspector((s) => s.view.requests);
  const value = useInspector((s) => s.filter.method);
  const setFilter = useInspector((s) => s.setFilter);
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
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </label>
  );
}

function VerdictCounts() {
  const counts = useInspector((s) => s.view.verdictCounts);
  const verdict = useInspector((s) => s.filter.verdict);
  const setFilter = useInspector((s) => s.setFilter);
  return (
    <fieldset className="filters__group">
      <legend className="visually-hidden">Rows per verdict</legend>
      <label>
        Verdict{" "}
        <select
          value={verdict}
          onChange={(e) => setFilter({ verdict: e.currentTarget.value as VerdictName | "" })}
        >
          <option value="">any</option>
          {VERDICTS.map((v) => (
            <option key={v.name} value={v.name}>
              {v.name} ({counts[v.name]})
            </option>
          ))}
        </select>
      </label>
      <ul className="verdict-counts" aria-label="Verdict counts">
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
    </fieldset>
  );
}

/** The filter bar above the timeline. */
export function FilterBar() {
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  return (
    <search className="filters" aria-label="Timeline filters">
      <label>
        Search{" "}
        <input
          type="search"
          value={filter.text}
          placeholder="text in rows and frames"
          onChange={(e) => setFilter({ text: e.currentTarget.value })}
        />
      </label>
      <MethodSelect />
      <label>
        Session{" "}
        <input
          size={10}
          value={filter.session}
          onChange={(e) => setFilter({ session: e.currentTarget.value })}
        />
      </label>
      <label>
        Key <input size={10} value={filter.key} onChange={(e) => setFilter({ key: e.currentTarget.value })} />
      </label>
      <label>
        Outcome{" "}
        <select
          value={filter.outcome}
          onChange={(e) => setFilter({ outcome: e.currentTarget.value as OutcomeKind | "" })}
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
          value={filter.direction}
          onChange={(e) => setFilter({ direction: e.currentTarget.value as Direction | "" })}
        >
          <option value="">any</option>
          <option value="client->agent">client → agent</option>
          <option value="agent->client">agent → client</option>
        </select>
      </label>
      <VerdictCounts />
      <button type="button" disabled={!isFiltering(filter)} onClick={() => setFilter(NO_FILTER)}>
        Clear filters
      </button>
    </search>
  );
}
