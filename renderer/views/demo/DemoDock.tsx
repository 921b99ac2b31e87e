/**
 * The built-in demo, when the hub runs one: the scenario player and the demo client panel, wired
 * to the store's demo status and the bridge's `demo` operation. The app's grid places the pieces
 * (demo.css): the scenario list in a strip above the views, the caption beside them (above the
 * details), the demo client's status below the caption. Renders nothing on a hub without a demo.
 */
import { useCallback, useState } from "react";
import type { DemoCommand } from "../../../shared/demo/demo-wire.js";
import { SCENARIOS } from "../../../shared/demo/scenarios.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useBridge, useInspector } from "../../model/store/inspector-store.js";
import { DemoPanel } from "./DemoPanel.js";
import { showsAnotherTrace } from "./demo-words.js";
import { ScenarioPlayer } from "./ScenarioPlayer.js";
import "./demo.css";

/** The dock. */
export function DemoDock() {
  const status = useInspector((s) => s.demo);
  const shownTraceId = useInspector((s) => s.traceId);
  const bridge = useBridge();
  const run = useOperation();
  const setFollowNewest = useInspector((s) => s.setFollowNewest);
  const infoNotice = useInspector((s) => s.notice?.tone === "info");
  const setNotice = useInspector((s) => s.setNotice);
  // folded at the start: a real session's views get the room; presenter mode shows it whole (demo.css)
  const [folded, setFolded] = useState(true);
  const command = useCallback(
    (label: string, c: DemoCommand, summary?: string | null) =>
      run(label, () => bridge.demo({ command: c }), summary === undefined ? undefined : () => summary),
    [bridge, run],
  );
  if (!status) return null;
  return (
    <div className="demo-dock">
      <section className="demo-dock__body" aria-label="Built-in demo" data-demo={folded ? "folded" : "open"}>
        <ScenarioPlayer
          scenarios={SCENARIOS}
          progress={status.scenario}
          enabled={status.state === "ready" || status.state === "failed"}
          elsewhere={showsAnotherTrace(status, shownTraceId)}
          folded={folded}
          onFold={setFolded}
          onPlay={(scenario, stepDelayMs) => {
            // The scenario plays on a fresh tap: show it, and keep it on screen while the scenario runs.
            setFollowNewest(true);
            // An earlier scenario's notice ("… fired at … on tap <its title>") is about another tap:
            // it goes when the next scenario starts. An error stays until it expires or is dismissed.
            if (infoNotice) setNotice(undefined);
            // The command returns once the scenario starts: "done" would be untrue while its steps
            // run, and a "started" notice would outlive the scenario. The caption names the scenario
            // and its step as it runs, so only a failure to start gets a notice.
            return command("Play", { op: "play", scenario, stepDelayMs }, null);
          }}
          onNext={() => command("Next step", { op: "next" }, "asked; the caption shows the step")}
          onStop={() => command("Stop", { op: "stop" })}
        />
        <DemoPanel
          status={status}
          shownTraceId={shownTraceId}
          onSend={(text, withKey) =>
            command(withKey ? "Send with key" : "Send without key", { op: "send", text, withKey })
          }
          onReset={(mode) => command("Restart agent", { op: "reset", mode })}
        />
      </section>
    </div>
  );
}
