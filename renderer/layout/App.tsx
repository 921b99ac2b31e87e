/** The app layout: toolbar, tabs, the active view and details side by side, stderr below; drop a file anywhere to import. */
import { useEffect } from "react";
import { StderrPanel } from "../components/StderrPanel.js";
import { DemoDock } from "../demo/DemoDock.js";
import { DetailsPane } from "../details/DetailsPane.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import { applyThemePreference } from "../theme/theme-preference.js";
import { Toolbar } from "../toolbar/Toolbar.js";
import { ImportBanner } from "../traces/imported-trace.js";
import { TabPanel } from "./TabPanel.js";
import { Tabs } from "./Tabs.js";
import { TraceBanners } from "./TraceBanners.js";
import { TraceDropZone } from "./TraceDropZone.js";

function ThemeSync() {
  const theme = useInspector((s) => s.theme);
  const largeText = useInspector((s) => s.largeText);
  useEffect(() => applyThemePreference(window, theme, largeText), [theme, largeText]);
  return null;
}

function Stderr() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.stderrLines);
  const lines = traceId === undefined ? undefined : catalog.get(traceId)?.stderr;
  return <StderrPanel lines={lines ?? []} count={count} />;
}

/** The whole inspector UI. */
export function App() {
  return (
    <TraceDropZone>
      <ThemeSync />
      <div className="app">
        <Toolbar />
        <DemoDock />
        <div>
          <Tabs />
          <ImportBanner />
          <TraceBanners />
        </div>
        <main className="main-split">
          <TabPanel />
          <section className="details" aria-label="Details">
            <DetailsPane />
          </section>
        </main>
        <Stderr />
      </div>
    </TraceDropZone>
  );
}
