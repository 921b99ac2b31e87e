/**
 * Renderer entry: picks the bridge for this shell (the preload's API, the hub that served the page,
 * or none in a saved page), builds the store, streams the hub's events (or imports the saved
 * page's trace), renders.
 */
import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.js";
import { MissingToken } from "./app/MissingToken.js";
import { loadThemePreference } from "./kit/theme/theme-preference.js";
import { chooseBridge } from "./model/bridge/choose-bridge.js";
import { createSavedPageBridge, savedTraceOf } from "./model/bridge/saved-page-bridge.js";
import { connectStore } from "./model/store/connect-store.js";
import { browserFrameBudget } from "./model/store/frame-scheduler.js";
import { createInspector, InspectorContext, useInspector } from "./model/store/inspector-store.js";
import { importTraceText } from "./model/traces/import-trace.js";
import "./kit/theme/theme.css";
import "./kit/theme/layout.css";

/** `2026-12-05 01:22 UTC` for an ISO time; the text itself when it is not one. */
function savedWhen(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

function Root() {
  // A token refused after this window was connected is a restarted hub: the app stays, with its
  // imported traces, and a banner asks for the new link (TraceBanners.tsx).
  const refused = useInspector((s) => s.connection === "unauthorized" && !s.wasConnected);
  return refused ? <MissingToken refused /> : <App />;
}

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root");
const preference = loadThemePreference(window);
document.documentElement.dataset.theme = preference.theme;
document.documentElement.dataset.text = preference.largeText ? "large" : "normal";
const saved = savedTraceOf(document);
const choice = saved !== undefined ? { bridge: createSavedPageBridge() } : chooseBridge(window);
const root = createRoot(rootElement);
if ("missingToken" in choice) {
  root.render(
    <StrictMode>
      <MissingToken refused={false} />
    </StrictMode>,
  );
} else {
  const inspector = createInspector(
    choice.bridge,
    preference,
    (cb) => requestAnimationFrame(cb),
    browserFrameBudget(),
  );
  const Connected = () => {
    useEffect(() => connectStore(inspector), []);
    return (
      <InspectorContext value={inspector}>
        <Root />
      </InspectorContext>
    );
  };
  root.render(
    <StrictMode>
      <Connected />
    </StrictMode>,
  );
  if (saved !== undefined) {
    const { setNotice } = inspector.store.getState();
    if ("problem" in saved)
      setNotice({ tone: "error", text: `This saved page cannot be shown: ${saved.problem}` });
    else
      importTraceText(inspector, saved.name, saved.text).then(
        (r) =>
          setNotice({
            tone: "info",
            text: `Saved page of ${saved.name} (${saved.content}), saved ${savedWhen(saved.savedAt)}: ${r.records} records${r.problems.length > 0 ? `, ${r.problems.length} lines flagged` : ""}`,
          }),
        (err: unknown) =>
          setNotice({
            tone: "error",
            text: `This saved page's trace cannot be shown: ${err instanceof Error ? err.message : String(err)}`,
          }),
      );
  }
}
