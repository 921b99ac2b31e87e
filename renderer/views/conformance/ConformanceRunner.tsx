/**
 * The conformance runner: pick an agent the hub offers, choose the cases, confirm any command that
 * is not the built-in demo agent, run, and watch the cases tick; each case's trace opens in the
 * timeline. The hub runs the suite; this only shows its board and sends start and cancel.
 */
import { useEffect, useRef, useState } from "react";
import { CONFORMANCE_CASES } from "../../../shared/conformance/case-catalogue.js";
import type { CaseName } from "../../../shared/conformance/conformance-result.js";
import {
  type ConformanceBoard,
  type ConformanceRunStatus,
  casesDone,
  isActive,
} from "../../../shared/conformance/conformance-run.js";
import { AgentPicker } from "../../kit/AgentPicker.js";
import { CommandConfirm } from "../../kit/CommandConfirm.js";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { CaseTable } from "./CaseTable.js";
import { openCaseTrace } from "./open-case-trace.js";
import { RUN_STARTED, type StartedRun, settledRunNotice } from "./run-notice.js";

function RunSummary({ run, onOpenProbe }: { run: ConformanceRunStatus; onOpenProbe: () => void }) {
  const done = casesDone(run);
  const running = run.cases.filter((c) => c.state === "running").length;
  const probe = run.probe;
  return (
    <div className="run-summary" aria-live="polite">
      <p>
        <strong>{visibleText(run.agent?.label ?? "")}</strong>
        {probe?.info?.name ? (
          <span className="muted">
            {" "}
            · agent says {visibleText(probe.info.name)} {visibleText(probe.info.version ?? "")}
            {probe.protocolVersion === null ? "" : `, protocol v${probe.protocolVersion}`}
          </span>
        ) : null}
      </p>
      {isActive(run.state) ? (
        <p>
          <progress max={run.cases.length} value={done} aria-label="Cases done" /> {done} of{" "}
          {run.cases.length} cases done{running > 0 ? `, ${running} running` : ""}
          {run.state === "cancelling" ? " · cancelling: running cases are being stopped" : ""}
        </p>
      ) : null}
      {probe && probe.status !== "v2" ? (
        <p className={probe.status === "not-v2" ? "run-verdict badge--warn" : "run-verdict badge--error"}>
          {probe.status === "not-v2" ? "" : "The agent did not start: "}
          {visibleText(probe.problem ?? "")}. No case ran.
          {run.probeTraceId ? (
            <>
              {" "}
              <button type="button" onClick={onOpenProbe}>
                Open probe trace
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {probe?.startup?.stderr.length ? (
        <figure className="startup-stderr" aria-labelledby="startup-stderr-title">
          <figcaption id="startup-stderr-title" className="muted">
            The agent's first stderr lines:
          </figcaption>
          <pre>{visibleText(probe.startup.stderr.join("\n"))}</pre>
        </figure>
      ) : null}
      {run.summary ? (
        <p
          data-testid="run-verdict"
          className={`run-verdict badge--${run.summary.ok ? "ok" : probe?.status === "not-v2" ? "warn" : "error"}`}
        >
          {run.state === "cancelled" ? "Cancelled. " : ""}
          {run.summary.ok ? "Conformant" : probe?.status === "not-v2" ? "Not a v2 agent" : "Not conformant"}:{" "}
          {run.summary.passed} passed, {run.summary.failed} failed
          {run.summary.requiredFailed > 0 ? ` (${run.summary.requiredFailed} required)` : ""},{" "}
          {run.summary.skipped} skipped
          {run.summary.notRun > 0 ? `, ${run.summary.notRun} not run` : ""}, in{" "}
          {(new Date(run.finishedAt ?? 0).getTime() - new Date(run.startedAt ?? 0).getTime()) / 1000} s.
        </p>
      ) : null}
      {run.state === "error" ? (
        <p className="run-verdict badge--error">The run broke off: {visibleText(run.error ?? "")}</p>
      ) : null}
      {run.tracesDir ? <p className="muted">Traces of this run: {run.tracesDir}</p> : null}
    </div>
  );
}

/** The runner for the hub's conformance board. */
export function ConformanceRunner({ board }: { board: ConformanceBoard }) {
  const ctx = useInspectorContext();
  const run = useOperation();
  const [agentId, setAgentId] = useState<string | undefined>(board.choices[0]?.id);
  const [cases, setCases] = useState<ReadonlySet<CaseName>>(new Set(CONFORMANCE_CASES.map((c) => c.name)));
  const [confirming, setConfirming] = useState(false);
  const status = board.run;
  const active = isActive(status.state);
  // The start's notice must not outlive the run: once the board says it ended, the notice says how.
  const notice = useInspector((s) => s.notice);
  const setNotice = useInspector((s) => s.setNotice);
  // The run started here: its id from the hub's reply, and the one the board showed before.
  const started = useRef<StartedRun | undefined>(undefined);
  useEffect(() => {
    const settled = settledRunNotice(notice, status, started.current);
    if (settled) setNotice(settled);
  }, [notice, status, setNotice]);
  const chosen = board.choices.find((c) => c.id === agentId) ?? board.choices[0];

  const start = () => {
    if (!chosen) return;
    setConfirming(false);
    const before = status.runId;
    started.current = undefined;
    const only = cases.size === CONFORMANCE_CASES.length ? undefined : [...cases];
    void run(
      `Conformance run on ${chosen.label}`,
      async () => {
        const reply = await ctx.bridge.conformanceStart({
          request: { agent: chosen.id, ...(only && { only }) },
        });
        // set before the "started" notice shows, which is when the notice may first settle
        started.current = { ...(reply.runId !== undefined && { runId: reply.runId }), before };
        return reply;
      },
      () => RUN_STARTED,
    );
  };
  const open = (traceId: string, label: string) =>
    void run(
      `Open ${label}`,
      () => openCaseTrace(ctx, traceId, label),
      () => "shown in the timeline",
    );
  const runLabel = status.runId?.replace(/^conformance-/, "") ?? "";

  return (
    <section className="conformance-runner" aria-labelledby="conformance-runner-title">
      <h2 id="conformance-runner-title">Run the conformance suite</h2>
      <p className="muted">
        Scripted client sessions, each through the recording tap, check that an agent honours idempotency keys
        as the RFD asks. Every case leaves a trace: open it to see why it passed or failed. The agents come
        from the built-in demo agent, the command that started this app (<code>-- &lt;agent command&gt;</code>
        ) or the local agents file; nothing typed here is ever run.
      </p>
      {board.configProblem ? (
        <p className="run-verdict badge--error">{visibleText(board.configProblem)}</p>
      ) : null}
      <AgentPicker
        choices={board.choices}
        value={active ? (status.agent?.id ?? chosen?.id) : chosen?.id}
        disabled={active || confirming}
        onChange={(id) => {
          setAgentId(id);
          setConfirming(false);
        }}
      />
      <details className="case-picker">
        <summary>
          Cases:{" "}
          {cases.size === CONFORMANCE_CASES.length ? "all" : `${cases.size} of ${CONFORMANCE_CASES.length}`}
        </summary>
        <ul>
          {CONFORMANCE_CASES.map((c) => (
            <li key={c.name}>
              <label title={c.rule}>
                <input
                  type="checkbox"
                  disabled={active}
                  checked={cases.has(c.name)}
                  onChange={(e) => {
                    const next = new Set(cases);
                    if (e.currentTarget.checked) next.add(c.name);
                    else next.delete(c.name);
                    setCases(next);
                  }}
                />{" "}
                {c.name} <span className="muted">{c.title}</span>
              </label>
            </li>
          ))}
        </ul>
      </details>
      {confirming && chosen ? (
        <CommandConfirm
          label="Confirm the command"
          chosen={chosen}
          howOften="several times (a fresh agent per case, and kill -9 for the restart case)"
          onRun={start}
          onBack={() => setConfirming(false)}
        />
      ) : (
        <p className="runner-actions">
          <button
            type="button"
            disabled={active || !chosen || cases.size === 0}
            onClick={() => (chosen?.source === "built-in" ? start() : setConfirming(true))}
          >
            Run suite
          </button>{" "}
          <button
            type="button"
            disabled={status.state !== "running"}
            onClick={() => void run("Cancel the conformance run", () => ctx.bridge.conformanceCancel())}
          >
            Cancel run
          </button>
        </p>
      )}
      {status.state === "idle" ? null : (
        <>
          <RunSummary
            run={status}
            onOpenProbe={() =>
              status.probeTraceId && open(status.probeTraceId, `conformance ${runLabel} probe`)
            }
          />
          <CaseTable
            cases={status.cases}
            onOpenTrace={(row) => row.traceId && open(row.traceId, `conformance ${runLabel} ${row.name}`)}
          />
        </>
      )}
    </section>
  );
}
