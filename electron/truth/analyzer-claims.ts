/**
 * Runs the analyzer under test as a user does: `analyze TRACE --json` of a built CLI, in its own
 * process, and returns its submissions. The oracle reads nothing else the analyzer says.
 */

import { spawn } from "node:child_process";
import type { JsonSubmission } from "./claims.js";

/** `analyze --json`'s submissions, or a one-line reason it gave none. */
export function analyzeJson(
  cliCommand: readonly string[],
  traceFile: string,
  env: NodeJS.ProcessEnv,
): Promise<{ submissions: JsonSubmission[] } | { problem: string }> {
  const [node, ...cli] = cliCommand;
  return new Promise((resolve) => {
    const child = spawn(node as string, [...cli, "analyze", traceFile, "--json"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => {
      if (err.length < 2000) err += c.toString("utf8");
    });
    child.on("error", (e) => resolve({ problem: `analyze could not start: ${e.message}` }));
    child.on("close", (code) => {
      // Exit 1 only says an agent violation was found; the JSON is there either way.
      try {
        const doc = JSON.parse(Buffer.concat(out).toString("utf8")) as { submissions?: JsonSubmission[] };
        if (Array.isArray(doc.submissions)) return resolve({ submissions: doc.submissions });
      } catch {
        // fall through
      }
      resolve({
        problem: `analyze --json exited ${code} without a model: ${err.trim().split("\n")[0] ?? ""}`,
      });
    });
  });
}
