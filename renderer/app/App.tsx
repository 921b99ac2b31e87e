/** The app layout: toolbar, tabs, list and details side by side, stderr below; drop a file anywhere to import. */
import { useEffect } from "react";
import { StderrPanel } from "../components/StderrPanel.js";
import { Toolbar } from "../components/Toolbar.js";
import { useInspector } from "../store/inspector-store.js";
import { applyThemePreference } from "../theme/theme-preference.js";
import { DetailsPane } from "./DetailsPane.js";
import { TabPanel } from "./TabPanel.js";
import { Tabs } from "./Tabs.js";
import { TraceDropZone } from "./TraceDropZone.js";

function ThemeSync() {
  const theme = useInspector((s) => s.theme);
  const largeText = useInspector((s) => s.largeText);
  useEffect(() => applyThemePreference(window, theme, largeText), [theme, largeText]);
  return null;
}

function Stderr() {
  const lines = useInspector((s) => s.stderr);
  return <StderrPanel lines={lines} />;
}

/** The whole inspector UI. */
export function App() {
  return (
    <TraceDropZone>
      <ThemeSync />
      <div className="app">
        <Toolbar />
        <Tabs />
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
