/**
 * The top toolbar, one row at 1280 px, with Large text too (there the labels marked
 * `toolbar__label` are read, not shown: the icons stay): name and hub status, the trace picker,
 * recording and files, the Faults toggle (the fault drawer opens under it), and the display toggles
 * (presenter mode, dark theme, large text). Notices show in the tab row (NoticeLine.tsx).
 */
import { ALargeSmall, Moon, Presentation, ScanSearch } from "lucide-react";
import { setPresenter, usePresenter } from "../../kit/theme/presenter.js";
import { useInspector } from "../../model/store/inspector-store.js";
import { FaultsToggle } from "../../views/faults/FaultControls.js";
import { faultDrawer } from "../../views/faults/fault-drawer-state.js";
import { ConnectionStatus } from "./ConnectionStatus.js";
import { TraceControls } from "./TraceControls.js";
import { TracePicker } from "./TracePicker.js";

function ViewButtons() {
  const theme = useInspector((s) => s.theme);
  const setTheme = useInspector((s) => s.setTheme);
  const largeText = useInspector((s) => s.largeText);
  const setLargeText = useInspector((s) => s.setLargeText);
  const present = usePresenter();
  return (
    <fieldset className="toolbar__group toolbar__display">
      <legend className="visually-hidden">Display</legend>
      <button
        type="button"
        aria-pressed={present}
        title="Presenter mode: the demo caption beside the views, the fault drawer closed, room for the story (also ?present in the URL)"
        onClick={() => {
          setPresenter(window, !present);
          // entering presenter mode closes the drawer; leaving it keeps it closed (open it with Faults)
          if (!present) faultDrawer.getState().setOpen(false);
        }}
      >
        <Presentation className="icon" aria-hidden="true" />
        <span className="toolbar__label">Present</span>
      </button>
      <button
        type="button"
        className="button--quiet"
        aria-pressed={theme === "dark"}
        aria-label="Dark theme"
        title="Dark theme"
        onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
      >
        <Moon className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="button--quiet"
        aria-pressed={largeText}
        aria-label="Large text"
        title="Large text: everything scales, the Sequence diagram too"
        onClick={() => setLargeText(!largeText)}
      >
        <ALargeSmall className="icon" aria-hidden="true" />
      </button>
    </fieldset>
  );
}

/** The top toolbar. */
export function Toolbar() {
  // A saved page has no hub: no faults to arm.
  const saved = useInspector((s) => s.shell === "saved");
  return (
    <header className="toolbar">
      <span className="toolbar__title" title="ACP Retry Inspector">
        <ScanSearch className="icon toolbar__logo" aria-hidden="true" />
        <h1 className="toolbar__name">ACP Retry Inspector</h1>
      </span>
      <ConnectionStatus />
      <TracePicker />
      <span className="toolbar__spacer" />
      <TraceControls />
      {saved ? null : <FaultsToggle />}
      <ViewButtons />
    </header>
  );
}
