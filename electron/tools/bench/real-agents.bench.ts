import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFinding } from "../../truth/finding-report.js";
import { sampleSchedules } from "../../truth/schedule-arbitrary.js";
import type { TruthSchedule } from "../../truth/truth-schedule.js";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../build/build-cli.mjs";
import { installedAgents } from "../real-agents/agent-setups.js";
import { startFakeModelApi } from "../real-agents/fake-model-api.js";
import { keepTrace, type RealAgentJudgement, runRealAgentSchedule } from "../real-agents/real-agent-run.js";
import type { Bench, BenchRow } from "./bench-row.js";

/*
 * Real agents nobody here wrote (issues 30 and 34): claude-agent-acp and codex-acp, installed with
 * npm into ACP_RI_REAL_AGENTS (a folder outside the project), behind the real tap with the truth
 * oracle's fault schedules (REAL_AGENTS_RUNS per agent, default 8, seed REAL_AGENTS_SEED; the first
 * has no fault), demo-client as the client and a fake model API on loopback. Every claim about what
 * the client saw is checked against the client's own record (docs/truth-oracle.md); the agents'
 * stores are not ours to read. Goal: 0 false statements. REAL_AGENTS_TRACES=DIR keeps every trace;
 * ACP_RI_TRUTH_ANALYZER_CLI judges another build's analyzer (e.g. an old one, to see the check fail).
 */

const RUNS = Number(process.env.REAL_AGENTS_RUNS ?? 8);
const SEED = Number(process.env.REAL_AGENTS_SEED ?? 20261204);

/** The schedules each agent runs: one without faults, then the oracle's (known ones first). */
export function realAgentSchedules(seed: number, count: number): TruthSchedule[] {
  const clean: TruthSchedule = { prompts: 2, faults: [], keyed: true };
  return [clean, ...sampleSchedules(seed, Math.max(0, count - 1))];
}

/** `npm run bench -- real-agents` (on request only). */
export const realAgentsBench: Bench = async () => {
  const peers = process.env.ACP_RI_REAL_AGENTS;
  if (!peers) {
    process.stderr.write(
      "real-agents bench: skipped: set ACP_RI_REAL_AGENTS to the folder the agents were installed in (docs/truth-oracle.md)\n",
    );
    return [];
  }
  const { agents, missing } = installedAgents(peers);
  for (const m of missing) process.stderr.write(`real-agents bench: not installed, skipped: ${m}\n`);
  if (agents.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-real-agents-"));
  const api = await startFakeModelApi();
  let keep = false;
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(join(dir, "cli")));
    const rows: BenchRow[] = [];
    const traces = process.env.REAL_AGENTS_TRACES;
    const analyzerCli = process.env.ACP_RI_TRUTH_ANALYZER_CLI;
    for (const agent of agents) {
      const started = performance.now();
      const judgements: RealAgentJudgement[] = [];
      for (const [i, schedule] of realAgentSchedules(SEED, RUNS).entries()) {
        const j = await runRealAgentSchedule(schedule, {
          cliCommand: [process.execPath, cli],
          agent,
          apiUrl: api.url,
          dir: join(dir, agent.name, `s${i + 1}`),
          ...(analyzerCli ? { analyzerCli: [process.execPath, analyzerCli] } : {}),
        });
        judgements.push(j);
        const kept = traces ? keepTrace(j, traces, i + 1) : undefined;
        process.stderr.write(
          `real-agents bench: ${agent.name} ${i + 1}: ${j.answered}/${j.submissions} answered, ${j.falseStatements.length} false${j.problem ? `, not judged: ${j.problem}` : ""}${kept ? ` (trace ${kept})` : ""}\n`,
        );
      }
      const falseOnes = judgements.filter((j) => j.falseStatements.length > 0);
      const statements = falseOnes.reduce((n, j) => n + j.falseStatements.length, 0);
      const judged = judgements.filter((j) => j.problem === undefined).length;
      keep ||= falseOnes.length > 0;
      for (const j of falseOnes.slice(0, 10))
        process.stderr.write(`real-agents bench: ${agent.name}: ${describeFinding(j)}\n`);
      const seconds = (performance.now() - started) / 1000;
      rows.push({
        name: `real agent ${agent.name} ${agent.version}: false statements about what the client saw`,
        measured: `${statements} in ${falseOnes.length} of ${judgements.length} schedules; ${judged} judged; ${seconds.toFixed(0)} s`,
        baseline: "",
        ratio: statements,
        goal: "0",
        met: statements === 0 && judged > 0,
      });
    }
    process.stderr.write(
      `real-agents bench: fake model API answered ${api.counts.messages} Messages, ${api.counts.responses} Responses, ${api.counts.other} other requests\n`,
    );
    if (keep) process.stderr.write(`real-agents bench: traces kept in ${dir}\n`);
    return rows;
  } finally {
    await api.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
};
