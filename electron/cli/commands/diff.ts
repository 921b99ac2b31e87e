import { parseArgs } from "node:util";
import type { FailOn } from "../../../shared/diff/diff-model.js";
import type { DiffSide } from "../../../shared/diff/diff-side.js";
import { diffExitStatus, diffTraces } from "../../../shared/diff/trace-diff.js";
import { terminalSafeJsonChunks } from "../../platform/terminal-text.js";
import { diffSideOfFile } from "../../trace/diff-side-file.js";
import { TraceReadError } from "../../trace/trace-reader.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";
import { renderDiff } from "../report/diff-text.js";

const FAIL_ON: readonly FailOn[] = ["worse", "any-change", "never"];

const HELP = `Usage: acp-retry-inspector diff A B [--json] [--fail-on worse|any-change|never]

Compares two traces by submission: A is the run before (say the agent build with the bug), B the run
after. Both are analysed as analyze does (any format analyze reads), then their session/prompt
submissions are paired: by idempotency key where both traces have it, else by session position
(the order sessions first appear) and prompt text; session ids are never compared, since every run
mints its own. Two demo-client runs mint different keys, so they pair by position and prompt.

Per submission: outcome (each attempt's effect on the agent, and whether the client has an answer),
verdicts, attempts, inserts, messageId rules (distinct messageIds, dedup held, the client has the
agent's messageId) and latency (first request to last answer), each marked better, worse, same or
changed (different, with no direction) and why. A more severe verdict, or a new violation or client
issue, is worse. Latency is worse or better only past 1.5x and 100 ms, and never counts in the gate.
Then other requests by method (requests, errors, no answer; p50/p99 latency side by side), and the
setup: protocol version, agent info and capabilities from the first initialize, transport, command.

Options:
  --json                 print the diff as JSON (setup, submissions, methods, totals, exitStatus)
  --fail-on WHEN         when to exit 1: worse (default: a verdict got worse), any-change (anything
                         but latency, the agent command and the tool's version changed), never

Exit status: 0 nothing failed the gate, 1 the gate failed, 2 usage error or an unreadable trace.

Example:
  acp-retry-inspector diff before.jsonl after.jsonl --fail-on worse`;

/** `acp-retry-inspector diff A B`: two traces compared by submission; exit 1 when a verdict got worse. */
export const diffCommand: CliCommand = {
  name: "diff",
  summary: "compare two traces by submission: outcomes, verdicts, inserts; exit 1 when a verdict got worse",
  help: HELP,
  async run(args) {
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parse(args);
    } catch (err) {
      throw usageError("diff", err, args, HELP);
    }
    const [fileA, fileB] = parsed.positionals;
    if (fileA === undefined || fileB === undefined || parsed.positionals.length !== 2)
      throw new CliError(`diff: expected two trace files, A and B\n\n${HELP}`);
    const failOn = (parsed.values["fail-on"] ?? "worse") as FailOn;
    if (!FAIL_ON.includes(failOn))
      throw new CliError(`diff: --fail-on takes ${FAIL_ON.join(", ")}, not '${failOn}'\n\n${HELP}`);
    // One side at a time: A's model is summarised and let go before B is read.
    const a = await side(fileA, "A");
    const b = await side(fileB, "B");
    const diff = diffTraces(a, b);
    const exitStatus = diffExitStatus(diff, failOn);
    if (parsed.values.json) {
      let pending = "";
      for (const chunk of terminalSafeJsonChunks({ a: fileA, b: fileB, failOn, exitStatus, ...diff }, 2)) {
        pending += chunk;
        if (pending.length >= 1 << 16) {
          process.stdout.write(pending);
          pending = "";
        }
      }
      process.stdout.write(`${pending}\n`);
    } else process.stdout.write(renderDiff(fileA, fileB, diff, failOn, exitStatus));
    return exitStatus;
  },
};

function parse(args: string[]) {
  return parseArgs({
    args,
    options: { json: { type: "boolean" }, "fail-on": { type: "string" } },
    strict: true,
    allowPositionals: true,
  });
}

async function side(file: string, name: string): Promise<DiffSide> {
  try {
    return await diffSideOfFile(file);
  } catch (err) {
    if (err instanceof TraceReadError) throw new CliError(`diff: ${name}: ${err.message}`, 2);
    throw err;
  }
}
