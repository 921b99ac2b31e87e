/** The top toolbar: status, trace picker, faults with the armed rules, recording and files, display options. */
import { Badge } from "../components/Badge.js";
import { useInspector } from "../store/inspector-store.js";
import { ConnectionStatus } from "./ConnectionStatus.js";
import { FaultControls } from "./FaultControls.js";
import { TraceControls } from "./TraceControls.js";
import { TracePicker } from "./TracePicker.js";

function ViewButtons() {
  const theme = useInspector((s) => s.theme);
  const setTheme = useInspector((s) => s.setTheme);
  const largeText = useInspector((s) => s.largeText);
  const setLargeText = useInspector((s) => s.setLargeText);
  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Display</legend>
      <button
        type="button"
        aria-pressed={theme === "dark"}
        onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
      >
        Dark theme
      </button>
      <button type="button" aria-pressed={largeText} onClick={() => setLargeText(!largeText)}>
        Large text
      </button>
    </fieldset>
  );
}

/** The top toolbar. */
export function Toolbar() {
  const connected = useInspector((s) => s.connection === "connected");
  const notice = useInspector((s) => s.notice);
  return (
    <header className="toolbar">
      <span className="toolbar__title">ACP Retry Inspector</span>
      <ConnectionStatus />
      <TracePicker />
      <TraceControls />
      <ViewButtons />
      <FaultControls disabled={!connected} />
      <output className="toolbar__notice" aria-live="polite">
        {notice ? <Badge tone={notice.tone === "error" ? "error" : "info"}>{notice.text}</Badge> : null}
      </output>
    </header>
  );
}
