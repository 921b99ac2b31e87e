/**
 * README's command table is held to each command's `--help`: a row's synopsis is the help's Usage
 * line, word for word; where the help says `[options]`, every option the row names is in the help.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "./commands/index.js";

const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");

/** The first synopsis of a help text: the Usage form after `acp-retry-inspector `, one line. */
function helpSynopsis(help: string): string {
  const usage = help.slice(help.indexOf("Usage:") + "Usage:".length).split("\n\n")[0] ?? "";
  const form = usage.split(/\n\s*(?=acp-retry-inspector )/).find((f) => f.trim() !== "") ?? "";
  return form
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^acp-retry-inspector /, "");
}

/** The first code span of the command table row for `name` (its main form), unescaped. */
function readmeSynopsis(name: string): string | undefined {
  for (const line of readme.split("\n")) {
    const code = /^\| `([^`]+)`/.exec(line)?.[1]?.replace(/\\\|/g, "|");
    if (code !== undefined && (code === name || code.startsWith(`${name} `))) return code;
  }
  return undefined;
}

describe("README's command table and --help", () => {
  it("has a row for every command, and its synopsis is the help's Usage line", () => {
    const drift: string[] = [];
    for (const c of commands) {
      const fromHelp = helpSynopsis(c.help);
      const row = readmeSynopsis(c.name);
      if (row === undefined) drift.push(`${c.name}: no README row`);
      else if (fromHelp.includes("[options]")) {
        for (const option of row.match(/--[a-z][a-z-]*/g) ?? [])
          if (!c.help.includes(option)) drift.push(`${c.name}: README names ${option}, --help does not`);
      } else if (row !== fromHelp) drift.push(`${c.name}:\n  README: ${row}\n  --help: ${fromHelp}`);
    }
    expect(drift).toEqual([]);
  });
});
