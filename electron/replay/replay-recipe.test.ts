import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath } from "../tools/testing/cli.js";

/** docs/replay.md's recipe, run as written: its `sh` block, and the workflow's commands checked against it. */
const work = mkdtempSync(join(tmpdir(), "acp-ri-recipe-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const doc = readFileSync(join(import.meta.dirname, "../../docs/replay.md"), "utf8");
const recipe = doc.slice(doc.indexOf("## Recipe"));
const block = (lang: string) => {
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(recipe);
  if (!m?.[1]) throw new Error(`no ${lang} block in the recipe`);
  return m[1];
};
const shLines = block("sh")
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));

describe("docs/replay.md recipe: capture, export, replay, diff", () => {
  it("runs each command line of the recipe on a lost-and-retried prompt; the diff says the fix deduplicates", () => {
    // `acp-retry-inspector` on PATH is the built CLI.
    const bin = join(work, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "acp-retry-inspector"),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath())} "$@"\n`,
    );
    chmodSync(join(bin, "acp-retry-inspector"), 0o755);
    const demoAgent = (store: string, ...more: string[]) =>
      [process.execPath, cliPath(), "demo-agent", "--store", join(work, store), ...more].join(" ");
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      AGENT: demoAgent("buggy-store", "--mode", "naive"),
      FIXED_AGENT: demoAgent("fixed-store"),
    };
    expect(shLines.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual([
      "acp-retry-inspector proxy",
      "acp-retry-inspector export",
      "acp-retry-inspector analyze",
      "acp-retry-inspector replay",
      "acp-retry-inspector diff",
    ]);
    const [capture, ...rest] = shLines as [string, ...string[]];
    // Step 1: the editor (demo-client) runs the recipe's agent command.
    const editor = spawnSync(
      process.execPath,
      [cliPath(), "demo-client", "--prompt", "deploy it", "--", "bash", "-c", capture],
      { cwd: work, env, encoding: "utf8", timeout: 60_000 },
    );
    expect(editor.status, editor.stderr).toBe(0);
    for (const line of rest) {
      // A line may say the exit status it has: `# exit N: why`.
      const expected = Number(/# exit (\d+)/.exec(line)?.[1] ?? 0);
      const r = spawnSync("bash", ["-c", line], { cwd: work, env, encoding: "utf8", timeout: 60_000 });
      expect(r.status, `${line}\n${r.stderr}`).toBe(expected);
    }
    expect(readFileSync(join(work, "bug-redacted.jsonl"), "utf8")).not.toContain("deploy it");
    const diff = JSON.parse(readFileSync(join(work, "diff.json"), "utf8")) as {
      exitStatus: number;
      submissions: { change: string; a?: { verdicts: string[] }; b?: { verdicts: string[] } }[];
    };
    expect(diff.exitStatus).toBe(0);
    expect(JSON.stringify(diff.submissions)).toMatch(/duplicate-insert[\s\S]*deduplicated/);
  }, 120_000);

  it("the GitHub Actions example runs the recipe's commands and uploads both traces and the diff", () => {
    const yaml = block("yaml");
    const runs = [...yaml.matchAll(/run: (acp-retry-inspector .*)/g)].map((m) => m[1]);
    expect(runs.length).toBe(2);
    for (const r of runs) expect(shLines).toContain(r);
    expect(yaml).toContain("uses: actions/upload-artifact@v4");
    expect(yaml).toContain("if: always()");
    const paths = yaml
      .slice(yaml.indexOf("path: |"))
      .split("\n")
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean);
    expect(paths).toEqual(["bug-redacted.jsonl", "fixed.jsonl", "diff.json"]);
  });
});
