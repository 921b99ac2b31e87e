import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { agentChoices, commandText, parseAgentsConfig, readAgentsConfig } from "./agent-choices.js";

const dir = mkdtempSync(join(tmpdir(), "acp-choices-"));

describe("the agents the app may run the suite against", () => {
  test("built-in modes first, then the command line's agent, then the agents file's", () => {
    const file = join(dir, "agents.json");
    writeFileSync(
      file,
      JSON.stringify({
        agents: [
          { name: "mine", command: ["node", "agent.js", "--flag with space"], cwd: "sub", env: { A: "1" } },
          { name: "remote", url: "ws://127.0.0.1:9/acp", restartCommand: "touch /tmp/x" },
        ],
      }),
    );
    const { entries, configProblem } = agentChoices({
      cliCommand: ["node", "cli.js"],
      argvCommand: ["my-agent", "--stdio"],
      cwd: "/work",
      agentsFile: file,
    });
    expect(configProblem).toBeUndefined();
    expect(entries.map((e) => [e.choice.id, e.choice.source])).toEqual([
      ["demo-correct", "built-in"],
      ["demo-naive", "built-in"],
      ["demo-forgetful", "built-in"],
      ["demo-strict", "built-in"],
      ["argv", "argv"],
      ["config-1", "config"],
      ["config-2", "config"],
    ]);
    const naive = entries[1];
    expect(naive?.agent("/runs/r1")).toEqual({
      kind: "stdio",
      command: ["node", "cli.js", "demo-agent", "--mode", "naive", "--store", "/runs/r1/store"],
    });
    expect(entries[4]?.choice).toMatchObject({ target: "my-agent --stdio", cwd: "/work" });
    expect(entries[5]?.choice.target).toBe("node agent.js '--flag with space'");
    expect(entries[5]?.cwd).toBe(join(dir, "sub"));
    expect(entries[5]?.env).toEqual({ A: "1" });
    expect(entries[6]?.agent("/r")).toEqual({
      kind: "url",
      url: "ws://127.0.0.1:9/acp",
      restartCommand: "touch /tmp/x",
    });
  });

  test.each([
    ["{", "not JSON"],
    ['{"agents": 1}', 'expected {"agents": [...]}'],
    ['{"agents": [{"command": ["a"]}]}', "agents[0] needs a name"],
    ['{"agents": [{"name": "x"}]}', "agents[0] needs a command"],
    ['{"agents": [{"name": "x", "command": "sh -c x"}]}', "a list of strings"],
    ['{"agents": [{"name": "x", "url": "file:///etc/passwd"}]}', "agents[0].url must be"],
    ['{"agents": [{"name": "x", "command": ["a"], "env": {"A": 1}}]}', "agents[0].env"],
  ])("a bad agents file %s says what is wrong", (text, message) => {
    expect(() => parseAgentsConfig(text, dir)).toThrow(message);
  });

  test("a missing default file is no problem; a missing named one, or a bad one, is reported", () => {
    expect(readAgentsConfig(join(dir, "none.json"), false)).toEqual({ entries: [] });
    expect(readAgentsConfig(join(dir, "none.json"), true).configProblem).toContain("ENOENT");
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "[]");
    const r = agentChoices({ cliCommand: ["node", "cli.js"], cwd: "/", agentsFile: bad });
    expect(r.configProblem).toContain(bad);
    expect(r.entries).toHaveLength(4);
  });

  test("commands are shown quoted as a shell would need them", () => {
    expect(commandText(["a", "b c", "it's", "--x=1"])).toBe("a 'b c' 'it'\\''s' --x=1");
  });
});
