/** The main view's tabs (ARIA tabs pattern): Timeline, Records, Sequence, Latency, Conformance, Diff. */
import type { KeyboardEvent } from "react";
import { useInspector } from "../model/store/inspector-store.js";
import type { ViewTab } from "../model/store/view-slice.js";

/** Tab ids and labels, in order. */
export const TABS: readonly { readonly id: ViewTab; readonly label: string }[] = [
  { id: "timeline", label: "Timeline" },
  { id: "records", label: "Records" },
  { id: "sequence", label: "Sequence" },
  { id: "latency", label: "Latency" },
  { id: "conformance", label: "Conformance" },
  { id: "diff", label: "Diff" },
];

/** The tab list; arrow keys move between tabs. */
export function Tabs() {
  const tab = useInspector((s) => s.tab);
  const setTab = useInspector((s) => s.setTab);
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : undefined;
    if (next === undefined) return;
    const t = TABS[(next + TABS.length) % TABS.length];
    if (t) {
      setTab(t.id);
      document.getElementById(`tab-${t.id}`)?.focus();
    }
  };
  return (
    <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
      {TABS.map((t) => (
        <button
          key={t.id}
          id={`tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={t.id === tab}
          aria-controls={`panel-${t.id}`}
          tabIndex={t.id === tab ? 0 : -1}
          onClick={() => setTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
