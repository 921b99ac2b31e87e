/** Renderer entry: picks the bridge for this shell, builds the store, streams the hub's events, renders. */
import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { chooseBridge } from "./bridge/choose-bridge.js";
import { App } from "./layout/App.js";
import { MissingToken } from "./layout/MissingToken.js";
import { connectStore } from "./store/connect-store.js";
import { browserFrameBudget } from "./store/frame-scheduler.js";
import { createInspector, InspectorContext, useInspector } from "./store/inspector-store.js";
import { loadThemePreference } from "./theme/theme-preference.js";
import "./theme/theme.css";
import "./theme/layout.css";

function Root() {
  const refused = useInspector((s) => s.connection === "unauthorized");
  return refused ? <MissingToken refused /> : <App />;
}

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root");
const preference = loadThemePreference(window);
document.documentElement.dataset.theme = preference.theme;
document.documentElement.dataset.text = preference.largeText ? "large" : "normal";
const choice = chooseBridge(window);
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
}
