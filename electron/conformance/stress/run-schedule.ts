/**
 * Runs one stress schedule for real: a remote front of the real tap (`proxy --listen
 * ws://127.0.0.1:0 --trace FILE --no-hub --fault ... -- <agent command>`: an agent process per
 * client connection, one trace for the run) with one `--fault` rule per fault of the schedule,
 * matched by the key of the prompt it hits; the stress client (keyed retries, reconnects and
 * cancels) over WebSocket; then the analyzer over the trace and the invariants over its model.
 */

import { randomUUID } from "node:crypto";
import { checkInvariants, type InvariantViolation } from "../../../shared/conformance/stress/invariants.js";
import type { StressFault, StressSchedule } from "../../../shared/conformance/stress/schedule.js";
import { analyzeTraceFile } from "../../trace/analyze-trace-file.js";
import { FrontProcess } from "../front-process.js";
import { runStressClient } from "./stress-client.js";

/** What one run needs. */
export interface ScheduleRunOptions {
  readonly cliCommand: readonly string[];
  readonly agentCommand: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The run's trace (must not exist). */
  readonly traceFile: string;
  readonly attemptTimeoutMs: number;
  /** Time limit of the run, from the moment the tap listens. */
  readonly runTimeoutMs: number;
}

/** How one run went. */
export interface ScheduleRunOutcome {
  readonly violations: readonly InvariantViolation[];
  /** True when the run failed: an invariant broke, or it could not run. */
  readonly failed: boolean;
  readonly reason: string;
  readonly traceFile: string;
  readonly durationMs: number;
}

/** The `--fault` argument of one tap fault, matched by the key of the prompt it hits. */
export function faultArg(fault: StressFault, key: string): string {
  const parts = [`method=session/prompt`, `key=${key}`];
  // drop-response, drop-request and the retry actions have a fixed frame.
  if (
    fault.action === "delay" ||
    fault.action === "disconnect-client" ||
    fault.action === "kill-agent" ||
    fault.action === "restart-agent"
  )
    parts.push(`on=${fault.on ?? "response"}`);
  if (fault.action === "delay") parts.push(`delay-ms=${fault.ms ?? 500}`);
  return `${fault.action}:${parts.join(",")}`;
}

/** Runs `schedule` once; never throws. */
export async function runSchedule(
  schedule: StressSchedule,
  options: ScheduleRunOptions,
): Promise<ScheduleRunOutcome> {
  const started = Date.now();
  const nonce = randomUUID().slice(0, 8);
  const prompts = Array.from({ length: schedule.prompts }, (_, i) => ({
    text: `stress ${nonce}: prompt ${i + 1}`,
    key: `stress-${nonce}-p${i + 1}`,
  }));
  const keyOf = (prompt: number) => (prompts[prompt - 1] as { key: string }).key;
  const extraArgs = schedule.faults
    .filter((f) => f.action !== "cancel")
    .flatMap((f) => ["--fault", faultArg(f, keyOf(f.prompt))]);
  const cancels = schedule.faults
    .filter((f) => f.action === "cancel")
    .map((f) => ({ prompt: f.prompt, ms: f.ms ?? 0 }));
  const front = new FrontProcess({
    cliCommand: options.cliCommand,
    agentCommand: options.agentCommand,
    extraArgs,
    traceFile: options.traceFile,
    cwd: options.cwd,
    env: options.env,
  });
  const remarks: string[] = [];
  try {
    const urls = await front.ready;
    // The run's time starts once the tap listens: a slow start (bounded by FRONT_START_MS) is not the agent's.
    const deadline = Date.now() + options.runTimeoutMs;
    const client = await runStressClient({
      target: { kind: "ws", url: urls.ws, token: urls.token },
      prompts,
      cancels,
      cwd: options.cwd,
      attemptTimeoutMs: options.attemptTimeoutMs,
      // Bounded by the run's time, not by a count: an agent restarting under load may take a while.
      maxAttempts: Math.ceil(options.runTimeoutMs / options.attemptTimeoutMs) + 1,
      deadline,
    });
    if (!client.finished)
      remarks.push(
        Date.now() >= deadline
          ? `the run did not finish within ${options.runTimeoutMs} ms of the tap listening`
          : `the client gave up after ${client.connections} connection(s)`,
      );
  } catch (err) {
    remarks.push(err instanceof Error ? err.message : String(err));
  } finally {
    await front.stop();
  }
  let violations: InvariantViolation[] = [];
  try {
    const { model } = await analyzeTraceFile(options.traceFile);
    // Every prompt the client submitted must end answered; one it never got to send is lost too.
    violations = checkInvariants(
      model,
      prompts.map((p) => p.key),
    );
  } catch (err) {
    remarks.push(`the trace could not be analyzed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const failed = violations.length > 0 || remarks.length > 0;
  const what =
    violations.length > 0
      ? violations.map((v) => `${v.invariant}: ${v.message}`).join("; ")
      : failed
        ? ""
        : "all invariants held";
  const reason = [what, ...remarks].filter((s) => s !== "").join("; ");
  return { violations, failed, reason, traceFile: options.traceFile, durationMs: Date.now() - started };
}
