/** Every verdict of the RFD checklist with how many rows of the shown trace carry it (Conformance tab, below the runner). */
import { VERDICTS } from "../../../shared/analyzer/verdicts.js";
import { useInspector } from "../../model/store/inspector-store.js";

/** The verdict checklist for the shown trace. */
export function VerdictChecklist() {
  const counts = useInspector((s) => s.view.verdictCounts);
  const setFilter = useInspector((s) => s.setFilter);
  const setTab = useInspector((s) => s.setTab);
  return (
    <section className="verdict-checklist" aria-labelledby="verdict-checklist-title">
      <h2 id="verdict-checklist-title">The shown trace against the RFD checklist</h2>
      <p className="muted">
        Each verdict the analyzer passes, with the RFD rule it rests on and how many rows of this trace carry
        it. Choose a count to see those rows in the timeline.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Verdict</th>
            <th scope="col">Severity</th>
            <th scope="col">Rows</th>
            <th scope="col">RFD rule</th>
          </tr>
        </thead>
        <tbody>
          {VERDICTS.map((v) => (
            <tr key={v.name}>
              <th scope="row" title={v.explanation}>
                {v.name}
              </th>
              <td>{v.severity}</td>
              <td>
                <button
                  type="button"
                  disabled={counts[v.name] === 0}
                  onClick={() => {
                    setFilter({ verdict: v.name });
                    setTab("timeline");
                  }}
                >
                  {counts[v.name]}
                </button>
              </td>
              <td>{v.rule}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
