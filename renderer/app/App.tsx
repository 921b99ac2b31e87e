/**
 * The app layout, one CSS grid (layout.css): toolbar, the fault drawer, the demo's scenario strip,
 * tabs (with the notice after an action between the tabs and the trace facts), then the active view beside a resizable side column (the demo caption and the demo
 * client's status above the details), and the stderr panel below. Presenter mode (`?present` or
 * the toolbar toggle) closes the fault drawer; on the Sequence tab the caption stays beside the
 * diagram, on the others it becomes a band over a full-width view (no details pane there). Drop a file anywhere to import.
 */
import { type CSSProperties, useEffect } from "react";
import { ImportBanner } from "../kit/ImportedTrace.js";
import { StderrPanel } from "../kit/StderrPanel.js";
import { usePresenter } from "../kit/theme/presenter.js";
import { applyThemePreference } from "../kit/theme/theme-preference.js";
import { useInspector, useInspectorContext } from "../model/store/inspector-store.js";
import { DemoDock } from "../views/demo/DemoDock.js";
import { DetailsPane } from "../views/details/DetailsPane.js";
import { FaultDrawer } from "../views/faults/FaultControls.js";
import { SplitHandle } from "./SplitHandle.js";
import { useSplitSize } from "./split-size.js";
import { TabPanel } from "./TabPanel.js";
import { Tabs } from "./Tabs.js";
import { TapAttachedBanner } from "./TapAttachedBanner.js";
import { TraceBanners } from "./TraceBanners.js";
import { TraceDropZone } from "./TraceDropZone.js";
import { TraceFacts } from "./toolbar/ConnectionStatus.js";
import { NoticeLine } from "./toolbar/NoticeLine.js";
import { Toolbar } from "./toolbar/Toolbar.js";

function ThemeSync() {
  const theme = useInspector((s) => s.theme);
  const largeText = useInspector((s) => s.largeText);
  const present = usePresenter();
  useEffect(() => applyThemePreference(window, theme, largeText), [theme, largeText]);
  useEffect(() => {
    document.documentElement.dataset.present = present ? "on" : "off";
  }, [present]);
  return null;
}

function Stderr() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.stderrLines);
  const lines = traceId === undefined ? undefined : catalog.get(traceId)?.stderr;
  const [height, setHeight] = useSplitSize("stderr", 140, 60, 600);
  return (
    <>
      {count > 0 ? (
        <SplitHandle
          label="Resize the agent stderr panel"
          orientation="horizontal"
          size={height}
          min={60}
          max={600}
          onResize={setHeight}
        />
      ) : null}
      <StderrPanel lines={lines ?? []} count={count} height={height} />
    </>
  );
}

/** The first focusable element: skips the toolbar, the drawer and the tabs to the shown view. */
function SkipLink() {
  return (
    <button
      type="button"
      className="skip-link"
      onClick={() => {
        const panel = document.querySelector<HTMLElement>('[role="tabpanel"]');
        if (!panel) return;
        if (!panel.hasAttribute("tabindex")) panel.tabIndex = -1;
        panel.focus();
      }}
    >
      Skip to the timeline
    </button>
  );
}

/**
 * The side column's width limits in px, normal and in presenter mode. Below 1440 px the normal side
 * column starts narrower, so the Timeline's Result, Verdict and Prompt fit beside it at 1280 px.
 */
const SIDE = {
  normal: { initial: 400, narrow: 350, min: 260, max: 900 },
  present: { initial: 470, narrow: 470, min: 300, max: 1000 },
};

/** The whole inspector UI. */
export function App() {
  const present = usePresenter();
  const tab = useInspector((s) => s.tab);
  const saved = useInspector((s) => s.shell === "saved");
  const limits = present ? SIDE.present : SIDE.normal;
  const [side, setSide] = useSplitSize(
    present ? "side-present" : "side",
    window.innerWidth < 1440 ? limits.narrow : limits.initial,
    limits.min,
    limits.max,
  );
  return (
    <TraceDropZone>
      <ThemeSync />
      <div
        className="app"
        data-present={present ? "on" : "off"}
        data-tab={tab}
        style={{ "--side-width": `${side}px` } as CSSProperties}
      >
        <SkipLink />
        <Toolbar />
        {saved ? null : <FaultDrawer />}
        <DemoDock />
        <div className="app__tabs">
          <div className="app__tabrow">
            <Tabs />
            <NoticeLine />
            <TraceFacts />
          </div>
          <ImportBanner />
          <TraceBanners />
          <TapAttachedBanner />
        </div>
        <main className="main-split">
          <TabPanel />
          <SplitHandle
            label={present ? "Resize the caption column" : "Resize the details pane"}
            orientation="vertical"
            size={side}
            min={limits.min}
            max={limits.max}
            onResize={setSide}
          />
          <section className="details" aria-label="Details">
            <DetailsPane />
          </section>
        </main>
        <Stderr />
      </div>
    </TraceDropZone>
  );
}
