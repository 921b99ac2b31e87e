/**
 * Beside the trace picker: "Compare with…" (pick another loaded trace: the Diff tab opens on the
 * pair) and "Replay against…" (one of the hub's configured agents, confirmed with the Conformance
 * tab's confirmation, then the hub's `replay` operation; the replay shows as a new live trace and,
 * once it ended, "Compare with the original" opens the Diff tab on the pair). Agents come from the
 * hub's command line or local agents file only, never typed here.
 */
import { ChevronDown, GitCompare } from "lucide-react";
import { useState } from "react";
import { AgentPicker } from "../../kit/AgentPicker.js";
import { CommandConfirm } from "../../kit/CommandConfirm.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { useDiffPair } from "./diff-pair.js";

const NO_CHOICES: readonly never[] = [];

/** Why "Replay against…" is off, or undefined when it is on. */
export function replayOffReason(o: { saved: boolean; live: boolean; agents: number }): string | undefined {
  if (o.saved) return "A saved page has no hub to run a replay";
  if (!o.live)
    return "Only a trace of the hub's folder can be replayed (this one was imported into this window)";
  if (o.agents === 0)
    return "The hub has no agents configured: start it with serve -- AGENT or --agents FILE";
  return undefined;
}

/** The two buttons and their popovers. */
export function TraceActions() {
  const { bridge } = useInspectorContext();
  const traces = useInspector((s) => s.traces);
  const traceId = useInspector((s) => s.traceId);
  const saved = useInspector((s) => s.shell === "saved");
  // A selector must return the same value while nothing changed: a fresh `[]` each time re-renders forever.
  const choices = useInspector((s) => s.conformance?.choices ?? NO_CHOICES);
  const selectTrace = useInspector((s) => s.selectTrace);
  const setTab = useInspector((s) => s.setTab);
  const { compare, noteReplay, replays } = useDiffPair();
  const run = useOperation();
  const [open, setOpen] = useState<"menu" | "compare" | "replay" | "confirm" | undefined>();
  const [other, setOther] = useState<string | undefined>();
  const agents = choices.filter((c) => c.source !== "built-in");
  const [agent, setAgent] = useState<string | undefined>();
  const shown = traces.find((t) => t.id === traceId);
  const chosen = agents.find((c) => c.id === (agent ?? agents[0]?.id));
  const off = replayOffReason({ saved, live: shown?.source === "live", agents: agents.length });
  const original = traceId === undefined ? undefined : replays[traceId];
  const replayDone = shown !== undefined && shown.status !== "running" && shown.status !== "waiting";
  const openDiff = (a: string, b: string) => {
    compare(a, b);
    setTab("diff");
    setOpen(undefined);
  };
  if (!shown) return null;
  const others = traces.filter((t) => t.id !== shown.id);
  // One toolbar button (the toolbar has no room for three at 1280 px); its menu holds the actions.
  const menuOpen = open === "menu";
  return (
    <span className="diff-replay">
      <button
        type="button"
        aria-expanded={open !== undefined}
        aria-haspopup="true"
        title="Compare this trace with another, or replay it against one of the hub's agents"
        className={original !== undefined && replayDone ? "diff-replay__toggle--ready" : undefined}
        onClick={() => setOpen(open === undefined ? "menu" : undefined)}
      >
        <GitCompare className="icon" aria-hidden="true" />
        <span className="toolbar__label">Compare</span>
        <ChevronDown className="icon" aria-hidden="true" />
      </button>
      {menuOpen ? (
        <span className="diff-replay__pop diff-replay__menu" role="dialog" aria-label="Compare and replay">
          {original !== undefined && replayDone ? (
            <button type="button" onClick={() => openDiff(original, shown.id)}>
              Compare with the original
            </button>
          ) : null}
          <button type="button" disabled={others.length === 0} onClick={() => setOpen("compare")}>
            Compare with…
          </button>
          <button
            type="button"
            disabled={off !== undefined}
            title={
              off ?? "Play this trace's client side again against one of the hub's agents, with its faults"
            }
            onClick={() => setOpen("replay")}
          >
            Replay against…
          </button>
          {off !== undefined ? <span className="muted diff-replay__why">{off}</span> : null}
        </span>
      ) : null}
      {open === "compare" ? (
        <span className="diff-replay__pop" role="dialog" aria-label="Compare with another trace">
          <label>
            Compare {visibleText(shown.label)} (A) with{" "}
            <select
              aria-label="Trace B"
              value={other ?? ""}
              onChange={(e) => setOther(e.currentTarget.value)}
            >
              <option value="">pick a trace</option>
              {others.map((t) => (
                <option key={t.id} value={t.id}>
                  {visibleText(t.label)} ({t.id})
                </option>
              ))}
            </select>
          </label>{" "}
          <button
            type="button"
            disabled={other === undefined || other === ""}
            onClick={() => other && openDiff(shown.id, other)}
          >
            Compare
          </button>
        </span>
      ) : null}
      {open === "replay" && chosen ? (
        <span className="diff-replay__pop" role="dialog" aria-label="Replay against an agent">
          <AgentPicker
            choices={agents}
            value={chosen.id}
            disabled={false}
            onChange={setAgent}
            label="Replay against"
          />
          <button type="button" onClick={() => setOpen("confirm")}>
            Replay…
          </button>
        </span>
      ) : null}
      {open === "confirm" && chosen ? (
        <span className="diff-replay__pop">
          <CommandConfirm
            label="Confirm the replay"
            chosen={chosen}
            howOften="once, to replay this trace's client side"
            onBack={() => setOpen("replay")}
            onRun={() => {
              setOpen(undefined);
              const source = shown.id;
              void run(
                `Replay against ${chosen.label}`,
                () => bridge.replay({ traceId: source, agentId: chosen.id }),
                (r) => {
                  noteReplay(r.traceId, source);
                  selectTrace(r.traceId);
                  return `started (trace ${r.traceId})`;
                },
              );
            }}
          />
        </span>
      ) : null}
    </span>
  );
}
