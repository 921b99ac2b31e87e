/** Which trace the views show: the hub's live taps (newest by default) and files imported here. */
import { useInspector } from "../store/inspector-store.js";

/** The trace selector. */
export function TraceSelector() {
  const traces = useInspector((s) => s.traces);
  const traceId = useInspector((s) => s.traceId);
  const selectTrace = useInspector((s) => s.selectTrace);
  const importing = useInspector((s) => s.importing);
  return (
    <div className="toolbar__group">
      <label>
        Trace{" "}
        <select
          aria-label="Shown trace"
          value={traceId ?? ""}
          disabled={traces.length === 0}
          onChange={(e) => selectTrace(e.currentTarget.value)}
        >
          {traces.length === 0 ? <option value="">no trace yet</option> : null}
          {traces.map((t) => (
            <option key={t.id} value={t.id}>
              {t.source === "imported" ? "file: " : t.attached ? "live: " : "ended: "}
              {t.label} ({t.records})
            </option>
          ))}
        </select>
      </label>
      {importing ? (
        <progress
          aria-label={`Importing ${importing.fileName}`}
          max={importing.total}
          value={importing.done}
        />
      ) : null}
    </div>
  );
}
