/** Renderer entry: picks the bridge for this shell, builds the store, streams events, renders. */
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.js";
import { MissingToken } from "./app/MissingToken.js";
import { chooseBridge } from "./bridge/choose-bridge.js";
import { connectStore } from "./store/connect-store.js";
import { createInspectorStore, InspectorContext, useInspector } from "./store/inspector-store.js";
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

if ("problem" in choice) {
  createRoot(rootElement).render(<MissingToken refused={false} />);
} else {
  const { bridge } = choice;
  const store = createInspectorStore(bridge.shell, preference);
  function Connected() {
    const [value] = useState(() => ({ store, bridge }));
    useEffect(() => connectStore(bridge, store, (cb) => requestAnimationFrame(cb)), []);
    return (
      <InspectorContext value={value}>
        <Root />
      </InspectorContext>
    );
  }
  createRoot(rootElement).render(
    <StrictMode>
      <Connected />
    </StrictMode>,
  );
}
