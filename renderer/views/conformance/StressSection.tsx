/**
 * The Stress section of the Conformance tab: runs the stress mode (`conformance --stress`) on the
 * hub against an agent it offers, shows every run as it ends (schedule, verdict, time), the
 * shrinking of the first failure, the minimal failing schedule with the command that reproduces it,
 * and opens its trace in the timeline. The hub runs it; this only shows its status and sends start
 * and cancel.
 */

import { useState } from "react";
import type { ConformanceBoard } from "../../../shared/conformance/conformance-run.js";
import {
  isStressActive,
  MAX_APP_STRESS_RUNS,
  type StressRunStatus,
  stressCounts,
} from "../../../shared/conformance/stress/stress-board.js";
import { AgentPicker } from "../../kit/AgentPicker.js";
import { Badge } from "../../kit/Badge.js";
import { CommandConfirm } from "../../kit/CommandConfirm.js";
import { FoldedText } from "../../kit/FoldedText.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useInspectorContext } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { openCaseTrace } from "./open-case-trace.js";

function StressStatus({ stress, onOpen }: { stress: StressRunStatus; onOpen: () => void }) {
  const { done, passed, failed } = stressCounts(stress);
  const active = isStressActive(stress);
  const seconds =
    stress.finishedAt && stress.startedAt
      ? (Date.parse(stress.finishedAt) - Date.parse(stress.startedAt)) / 1000
      : undefined;
  const f = stress.failure;
  return (
    <div className="stress-status" aria-live="polite">
      <p>
        <strong>{stress.agent?.label}</strong> <span className="muted">· seed {stress.seed}</span>
      </p>
      {active ? (
        <p>
          <progress max={stress.total} value={done} aria-label="Stress runs done" /> {done} of {stress.total}{" "}
          runs done, {failed} failed
          {stress.state === "cancelling" ? " · cancelling: running schedules are ending" : ""}
        </p>
      ) : null}
      {stress.shrinking ? (
        <p data-testid="stress-shrinking">
          Shrinking the failure of run {stress.shrinking.index + 1}: {stress.shrinking.tried} schedule(s)
          tried
          {stress.shrinking.last ? (
            <>
              , last <code>{stress.shrinking.last}</code>
            </>
          ) : null}
        </p>
      ) : null}
      {stress.state === "done" || stress.state === "cancelled" ? (
        <p
          data-testid="stress-verdict"
          className={`run-verdict badge--${failed === 0 && done === stress.total ? "ok" : "error"}`}
        >
          {stress.state === "cancelled" ? "Cancelled. " : ""}
          {failed === 0
            ? `All ${done} run(s) passed: every invariant held`
            : `${failed} of ${done} run(s) broke an invariant`}
          {seconds !== undefined ? `, in ${seconds.toFixed(1)} s.` : "."}
        </p>
      ) : null}
      {stress.state === "error" ? (
        <p className="run-verdict badge--error">
          The stress run broke off: {visibleText(stress.error ?? "")}
        </p>
      ) : null}
      {f ? (
        <div className="stress-failure" data-testid="stress-failure">
          <p>
            Minimal failing schedule: <code>{visibleText(f.shrunk)}</code> ({f.shrunkFaults} fault
            {f.shrunkFaults === 1 ? "" : "s"}), shrunk from run {f.index + 1} (
            <code>{visibleText(f.schedule)}</code>) in {f.tries} run(s).
          </p>
          <ul>
            {f.violations.map((v) => (
              <li key={`${v.invariant}-${v.key}`}>
                <strong>{visibleText(v.invariant)}</strong>: {visibleText(v.message)}
              </li>
            ))}
          </ul>
          <p>
            Reproduce: <code data-testid="stress-reproduce">{visibleText(f.reproduce)}</code>
          </p>
          <button type="button" disabled={f.traceId === undefined} onClick={onOpen}>
            Open minimal failing trace
          </button>
        </div>
      ) : null}
      {stress.rows.length > 0 ? (
        <div className="stress-runs">
          <table className="case-table" aria-label="Stress runs">
            <thead>
              <tr>
                <th scope="col">Result</th>
                <th scope="col">Run</th>
                <th scope="col">Schedule</th>
                <th scope="col">Reason</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {[...stress.rows]
                .sort((a, b) => (a.status === b.status ? a.index - b.index : a.status === "fail" ? -1 : 1))
                .map((r) => (
                  <tr key={r.index} data-state={r.status}>
                    <td>
                      <Badge tone={r.status === "pass" ? "ok" : "error"}>
                        {r.status === "pass" ? "pass" : "FAIL"}
                      </Badge>
                    </td>
                    <td>{r.index + 1}</td>
                    <td>
                      <code>{visibleText(r.schedule)}</code>
                    </td>
                    <td className="case-table__reason">
                      <FoldedText text={r.reason ?? ""} />
                    </td>
                    <td>{(r.durationMs / 1000).toFixed(1)} s</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p className="muted">
        {passed} passed, {failed} failed{stress.tracesDir ? ` · traces: ${stress.tracesDir}` : ""}
      </p>
    </div>
  );
}

/** The Stress section for the hub's conformance board. */
export function StressSection({ board }: { board: ConformanceBoard }) {
  const ctx = useInspectorContext();
  const run = useOperation();
  const stress = board.stress;
  const [agentId, setAgentId] = useState<string | undefined>(board.choices[0]?.id);
  const [runs, setRuns] = useState(20);
  const [seed, setSeed] = useState("");
  const [confirming, setConfirming] = useState(false);
  if (!stress) return null;
  const active = isStressActive(stress);
  const chosen = board.choices.find((c) => c.id === agentId) ?? board.choices[0];
  const seedValue = seed.trim() === "" ? undefined : Number(seed);
  const seedOk =
    seedValue === undefined || (Number.isInteger(seedValue) && seedValue >= 0 && seedValue <= 0xffffffff);
  const runsOk = Number.isInteger(runs) && runs >= 1 && runs <= MAX_APP_STRESS_RUNS;
  const start = () => {
    if (!chosen) return;
    setConfirming(false);
    void run(
      `Stress run on ${chosen.label}`,
      () =>
        ctx.bridge.conformanceStressStart({
          request: { agent: chosen.id, runs, ...(seedValue !== undefined && { seed: seedValue }) },
        }),
      () => "started; the runs tick below",
    );
  };
  const openTrace = () => {
    const id = stress.failure?.traceId;
    if (id === undefined) return;
    void run(
      "Open the minimal failing trace",
      () => openCaseTrace(ctx, id, `stress ${stress.runId ?? ""} minimal failing`),
      () => "shown in the timeline",
    );
  };
  return (
    <section className="stress-section" aria-labelledby="stress-title">
      <h2 id="stress-title">Stress: random fault schedules</h2>
      <p className="muted">
        Each run is a session of 2–4 prompts sent at once by a keyed, retrying client through the tap, hit by
        1–4 faults at random points: dropped answers and requests, delays, disconnects, kill -9 and restarts
        of the agent, the inspector's own retries, cancels. Every run's trace must hold: one insert per key,
        one messageId per key, every submission answered, no key leaked. The first failure is shrunk to a
        minimal schedule.
      </p>
      <AgentPicker
        label="Agent under stress"
        choices={board.choices}
        value={active ? (stress.agent?.id ?? chosen?.id) : chosen?.id}
        disabled={active || confirming}
        onChange={(id) => {
          setAgentId(id);
          setConfirming(false);
        }}
      />
      <p className="stress-inputs">
        <label>
          Runs{" "}
          <input
            type="number"
            min={1}
            max={MAX_APP_STRESS_RUNS}
            value={runs}
            disabled={active}
            aria-label="Stress runs"
            onChange={(e) => setRuns(Number(e.currentTarget.value))}
          />
        </label>{" "}
        <label>
          Seed{" "}
          <input
            type="text"
            inputMode="numeric"
            placeholder="random"
            value={seed}
            disabled={active}
            aria-label="Stress seed"
            onChange={(e) => setSeed(e.currentTarget.value)}
          />
        </label>
        {seedOk ? null : <span className="badge--error"> the seed is an integer from 0 to 4294967295</span>}
      </p>
      {confirming && chosen ? (
        <CommandConfirm
          label="Confirm the stress command"
          chosen={chosen}
          howOften="many times (an agent per connection, and kill -9)"
          onRun={start}
          onBack={() => setConfirming(false)}
        />
      ) : (
        <p className="runner-actions">
          <button
            type="button"
            disabled={active || !chosen || !runsOk || !seedOk}
            onClick={() => (chosen?.source === "built-in" ? start() : setConfirming(true))}
          >
            Run stress
          </button>{" "}
          <button
            type="button"
            disabled={stress.state !== "running"}
            onClick={() => void run("Cancel the stress run", () => ctx.bridge.conformanceStressCancel())}
          >
            Cancel stress
          </button>
        </p>
      )}
      {stress.state === "idle" ? null : <StressStatus stress={stress} onOpen={openTrace} />}
    </section>
  );
}
