/**
 * The client suite (`conformance --client -- <client command>`): runs the client under test once
 * per fault schedule against the reference agent behind the tap, and judges each case from that
 * run's trace (the client's requests, and the analyzer's Client-issue verdicts). The run without
 * faults goes first and is the probe: a client that never reaches the agent, or asks for protocol
 * version 1, stops the suite there (once, at the top: exit 1, or 3 for "v2 not supported").
 */

import { mkdirSync } from "node:fs";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import type { TimelineModel, VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import { hasTimeoutPlaceholder } from "../../../shared/conformance/client/agent-placeholder.js";
import {
  CLIENT_CASES,
  CLIENT_RUNS,
  type ClientCaseDefinition,
  type ClientRunName,
  clientCaseRequired,
} from "../../../shared/conformance/client/client-case-catalogue.js";
import { clientRunEvidence, judgeClientCase } from "../../../shared/conformance/client/client-judge.js";
import type { ClientWire } from "../../../shared/conformance/client/client-wire.js";
import type {
  AgentProbe,
  CaseResult,
  ClientCaseName,
  ConformanceProgress,
  ConformanceReport,
  EvidenceFrame,
} from "../../../shared/conformance/conformance-result.js";
import { summarize } from "../../../shared/conformance/conformance-summary.js";
import { requirement } from "../../../shared/conformance/requirement-catalogue.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { analyzeTraceFile } from "../../trace/analyze-trace-file.js";
import { PRIVATE_DIR_MODE } from "../../trace/private-files.js";
import { readTrace } from "../../trace/trace-reader.js";
import { SUITE_TOOL } from "../agent-dialers.js";
import { type ClientRunResult, runClientOnce } from "./client-process.js";

/** Everything `runClientConformance` takes. */
export interface ClientConformanceOptions {
  /** The client command, with `{agent}` (and optionally `{dir}`) in it. */
  readonly clientCommand: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** How to run this tool's CLI (default: this process's node and script). */
  readonly cliCommand?: readonly string[];
  readonly tracesDir: string;
  readonly only?: readonly ClientCaseName[];
  /**
   * How long one client run may take, ms (default 20000); a run that waits for the client's own
   * attempt timeout (`waitsForClientTimeout`) gets `clientTimeoutMs` on top.
   */
  readonly caseTimeoutMs?: number;
  /**
   * The client's attempt timeout, ms: the value of `{timeoutMs}` in the client command, or (without
   * it) how long the client is known to wait for an answer before it resends. Default: 5000 with
   * `{timeoutMs}`, else 30000 (demo-client's default).
   */
  readonly clientTimeoutMs?: number;
  /** Runs at the same time (default 3). */
  readonly concurrency?: number;
  /** Extra arguments of the reference agent (default `--turn-ms 200`: short turns). */
  readonly agentArgs?: readonly string[];
  /** The client's output lines, `[run] line`. */
  readonly onClientOutput?: (run: string, line: string) => void;
}

/** How long the suite lets one run take, and why. */
interface RunWait {
  readonly limitMs: number;
  /** For a run that waits for the client's attempt timeout: that timeout, and whether the suite asked for it (`{timeoutMs}`). */
  readonly clientTimeoutMs?: number;
  readonly asked?: boolean;
}

/** The attempt timeout `{timeoutMs}` asks of the client when `--client-timeout` is not given, ms. */
const DEFAULT_ASKED_TIMEOUT_MS = 5000;
/** The attempt timeout assumed for a client that is not told one (demo-client's default), ms. */
const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

interface JudgedRun {
  readonly wait: RunWait;
  readonly result: ClientRunResult;
  readonly wire: ClientWire;
  readonly verdicts: readonly VerdictHit[];
  readonly records: readonly TraceRecord[];
}

/** Runs the client suite; `onProgress` sees the probe and every case start and end. */
export async function runClientConformance(
  options: ClientConformanceOptions,
  onProgress: (event: ConformanceProgress<ClientCaseName>) => void = () => undefined,
): Promise<ConformanceReport<ClientCaseName>> {
  const started = Date.now();
  mkdirSync(options.tracesDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const script = process.argv[1];
  const cliCommand = options.cliCommand ?? [process.execPath, ...(script ? [script] : [])];
  const caseMs = options.caseTimeoutMs ?? 20_000;
  const asks = hasTimeoutPlaceholder(options.clientCommand);
  const clientTimeoutMs =
    options.clientTimeoutMs ?? (asks ? DEFAULT_ASKED_TIMEOUT_MS : DEFAULT_CLIENT_TIMEOUT_MS);
  const selected = CLIENT_CASES.filter((c) => !options.only || options.only.includes(c.name));
  const runOnce = async (name: ClientRunName): Promise<JudgedRun> => {
    const run = CLIENT_RUNS.find((r) => r.name === name);
    if (!run) throw new Error(`unknown client run ${name}`);
    const wait: RunWait = run.waitsForClientTimeout
      ? { limitMs: clientTimeoutMs + caseMs, clientTimeoutMs, asked: asks }
      : { limitMs: caseMs };
    const result = await runClientOnce(run, {
      clientCommand: options.clientCommand,
      cliCommand,
      cwd: options.cwd,
      env: options.env ?? process.env,
      tracesDir: options.tracesDir,
      agentArgs: options.agentArgs ?? ["--turn-ms", "200"],
      limitMs: wait.limitMs,
      ...(asks && { clientTimeoutMs }),
      tool: SUITE_TOOL,
      onOutput: options.onClientOutput ? (line) => options.onClientOutput?.(name, line) : undefined,
    });
    const records: TraceRecord[] = [];
    try {
      for await (const ev of readTrace(result.traceFile)) if (ev.kind === "record") records.push(ev.record);
    } catch {
      // An empty run: nothing reached the agent.
    }
    let model: TimelineModel;
    try {
      model = (await analyzeTraceFile(result.traceFile)).model;
    } catch {
      // An unreadable file: the analyzer reads the records that could be read.
      const analyzer = new Analyzer();
      for (const r of records) analyzer.ingest(r);
      model = analyzer.model();
    }
    const { wire, verdicts } = clientRunEvidence(records, model);
    return { result, wire, verdicts, records, wait };
  };

  const plain = await runOnce("plain");
  const probe = probeOf(plain);
  onProgress({ kind: "probe", probe });
  const runs = new Map<ClientRunName, JudgedRun>([["plain", plain]]);
  const cases: CaseResult<ClientCaseName>[] = [];
  if (probe.status !== "v2") {
    const reason =
      probe.status === "not-v2" ? "not run: v2 not supported" : "not run: the client did not reach the agent";
    for (const c of selected) {
      const result = notRun(c, reason);
      cases.push(result);
      onProgress({ kind: "case-end", result });
    }
  } else {
    const needed = [...new Set(selected.map((c) => c.run))].filter((r) => r !== "plain");
    const judgeRun = (name: ClientRunName) => {
      const run = runs.get(name) as JudgedRun;
      for (const c of selected.filter((s) => s.run === name)) {
        const result = judged(c, run);
        cases.push(result);
        onProgress({ kind: "case-end", result });
      }
    };
    for (const c of selected.filter((s) => s.run === "plain"))
      onProgress({ kind: "case-start", name: c.name, title: c.title });
    judgeRun("plain");
    const queue = [...needed];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const c of selected.filter((s) => s.run === next))
          onProgress({ kind: "case-start", name: c.name, title: c.title });
        runs.set(next, await runOnce(next));
        judgeRun(next);
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 3, needed.length)) }, worker),
    );
  }
  const ordered = selected.map((c) => cases.find((r) => r.name === c.name) as CaseResult<ClientCaseName>);
  return {
    tool: SUITE_TOOL,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    target: { kind: "client", command: [...options.clientCommand], cwd: options.cwd },
    tracesDir: options.tracesDir,
    probe,
    cases: ordered,
    summary: summarize(probe, ordered),
  };
}

/** What the run without faults says about the client: did it reach the agent, and with which version. */
function probeOf(run: JudgedRun): AgentProbe {
  const { result, wire } = run;
  const init = wire.exchanges.find((e) => e.method === "initialize");
  const info = init?.params?.clientInfo ?? init?.params?.info;
  const clientInfo =
    info !== null && typeof info === "object"
      ? {
          ...(typeof (info as { name?: unknown }).name === "string" && {
            name: (info as { name: string }).name,
          }),
          ...(typeof (info as { version?: unknown }).version === "string" && {
            version: (info as { version: string }).version,
          }),
        }
      : undefined;
  const base = { traceFile: result.traceFile, ...(clientInfo && { info: clientInfo }) };
  if (!init) {
    const said = result.stderr.length > 0 ? `; its stderr: ${result.stderr[0]}` : "";
    const problem = result.spawnError
      ? `the client could not be started: ${result.spawnError}`
      : result.connections === 0
        ? `the client ${result.stopped ? "was stopped after the case's time limit" : result.exit} without starting the suite's agent (is {agent} where it takes its agent command?)${said}`
        : `the client started the suite's agent but sent no initialize; it ${result.exit}${said}`;
    return {
      ...base,
      protocolVersion: null,
      status: "failed",
      problem,
      startup: {
        ...(result.spawnError && { spawnError: result.spawnError }),
        exit: result.exit,
        stderr: result.stderr,
      },
    };
  }
  const version = init.params?.protocolVersion;
  if (version !== 2)
    return {
      ...base,
      protocolVersion: typeof version === "number" ? version : null,
      status: "not-v2",
      problem: `v2 not supported: the client asked for ACP protocol version ${JSON.stringify(version)} (idempotency keys are v2 only)`,
    };
  return { ...base, protocolVersion: 2, status: "v2" };
}

function evidenceFrames(run: JudgedRun, seqs: readonly number[]): EvidenceFrame[] {
  return seqs.flatMap((seq) => {
    const f = run.wire.frames.get(seq);
    return f ? [{ seq: f.seq, conn: f.conn, dir: f.dir, ts: f.ts, raw: f.raw }] : [];
  });
}

function judged(c: ClientCaseDefinition, run: JudgedRun): CaseResult<ClientCaseName> {
  const j = judgeClientCase(c.name, { wire: run.wire, verdicts: run.verdicts });
  const rule = requirement(c.requirement);
  const seqs = [...new Set(j.evidence.flatMap((e) => e.frameSeqs))].sort((a, b) => a - b);
  const frames = j.evidence
    .map((e) => `#${e.conn} id ${JSON.stringify(e.id)} (seq ${e.frameSeqs.join(", ")})`)
    .join(", ");
  const ended = run.result.stopped ? ` (the client was stopped after ${run.result.durationMs} ms)` : "";
  const waited = waitedWords(run);
  const reason =
    j.status === "fail"
      ? `${j.message}${ended} [breaks ${c.requirement}: ${rule.summary}${frames ? `; frames ${frames}` : ""}]${waited}`
      : j.status === "skip"
        ? `${j.message}${waited}`
        : j.message;
  return {
    name: c.name,
    title: c.title,
    rule: rule.text,
    required: clientCaseRequired(c),
    status: j.status,
    reason,
    traceFile: run.result.traceFile,
    analyzerViolations: [],
    durationMs: run.result.durationMs,
    outcomes: [
      {
        id: c.requirement,
        status: j.status,
        message: j.status === "fail" && frames ? `${j.message} (frames ${frames})` : j.message,
        ...(j.status === "fail" && { frames: evidenceFrames(run, seqs) }),
      },
    ],
  };
}

/** For a run that waits for the client's attempt timeout: how long the suite waited, and why that long. */
function waitedWords(run: JudgedRun): string {
  const { wait, result } = run;
  if (wait.clientTimeoutMs === undefined) return "";
  const timeout = wait.asked
    ? `the attempt timeout it was asked for with {timeoutMs}, ${wait.clientTimeoutMs} ms`
    : `its attempt timeout, taken as ${wait.clientTimeoutMs} ms (give --client-timeout MS, or {timeoutMs} in its command)`;
  const how = result.stopped ? "then stopped it" : "and it ended by itself";
  return ` (the suite waited ${result.durationMs} ms for the client, ${how}; it waits up to ${wait.limitMs} ms: ${timeout}, plus ${wait.limitMs - wait.clientTimeoutMs} ms)`;
}

function notRun(c: ClientCaseDefinition, reason: string): CaseResult<ClientCaseName> {
  const rule = requirement(c.requirement);
  return {
    name: c.name,
    title: c.title,
    rule: rule.text,
    required: clientCaseRequired(c),
    status: "not-run",
    reason,
    analyzerViolations: [],
    durationMs: 0,
    outcomes: [{ id: c.requirement, status: "not-run", message: reason }],
  };
}
