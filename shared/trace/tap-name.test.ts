import { describe, expect, it } from "vitest";
import { TRACE_FORMAT } from "./record.js";
import { agentProgramName, checkTapName, deriveTapName, MAX_TAP_NAME_CHARS, traceName } from "./tap-name.js";

describe("agentProgramName: the agent program without interpreter and runner noise", () => {
  const table: [string[], string][] = [
    [
      ["/usr/bin/node", "/home/me/acp-retry-inspector/dist/cli.js", "demo-agent", "--store", "/tmp/s"],
      "demo-agent",
    ],
    [["npx", "@zed-industries/claude-code-acp"], "claude-code-acp"],
    [["npx", "-y", "@zed-industries/claude-code-acp@latest"], "claude-code-acp"],
    [["npx", "--yes", "--", "codex-acp@0.3.1", "--stdio"], "codex-acp"],
    [["npx", "-p", "@acme/tools", "acme-agent"], "acme-agent"],
    [["npx", "acp-retry-inspector", "demo-agent", "--mode", "naive"], "demo-agent"],
    [["acp-retry-inspector", "demo-agent"], "demo-agent"],
    [["pnpm", "dlx", "@acme/agent"], "agent"],
    [["npm", "exec", "--", "my-agent"], "my-agent"],
    [["bunx", "gemini-acp"], "gemini-acp"],
    [["claude-agent-acp"], "claude-agent-acp"],
    [["/usr/local/bin/claude-agent-acp", "--verbose"], "claude-agent-acp"],
    [["node", "agent.mjs"], "agent"],
    [["node", "--enable-source-maps", "-r", "ts-node/register", "./src/my-agent.ts"], "my-agent"],
    [["node", "/home/me/claude-agent-acp/dist/index.js"], "claude-agent-acp"],
    [["node", "./node_modules/@google/gemini-cli/dist/index.js", "--experimental-acp"], "gemini-cli"],
    [["C:\\Program Files\\nodejs\\node.exe", "C:\\agents\\my-agent.js"], "my-agent"],
    [["python3", "-m", "my_agent"], "my_agent"],
    [["python", "-u", "agent.py"], "agent"],
    [["uv", "run", "--with", "acp", "python", "-m", "acp_agent"], "acp_agent"],
    [["uvx", "fast-agent-acp"], "fast-agent-acp"],
    [["deno", "run", "-A", "https://example.com/agent.ts"], "agent"],
    [["bun", "run", "agent.ts"], "agent"],
    [["env", "RUST_LOG=debug", "codex-acp"], "codex-acp"],
    [["sh", "-c", "npx @zed-industries/claude-code-acp --debug"], "claude-code-acp"],
    [["./run-agent.sh"], "run-agent"],
    [["node"], "node"],
    [[], ""],
  ];
  it.each(table)("%j -> %s", (argv, name) => {
    expect(agentProgramName(argv)).toBe(name);
  });
});

describe("deriveTapName", () => {
  it("joins the program and the folder's base name", () => {
    expect(
      deriveTapName({ command: ["npx", "@zed-industries/claude-code-acp"], cwd: "/home/me/myrepo" }),
    ).toBe("claude-code-acp @ myrepo");
    expect(
      deriveTapName({ command: ["node", "/x/dist/cli.js", "demo-agent"], cwd: "C:\\work\\site\\" }),
    ).toBe("demo-agent @ site");
    expect(deriveTapName({ command: ["codex-acp"] })).toBe("codex-acp");
    expect(deriveTapName({ command: ["codex-acp"], cwd: "/" })).toBe("codex-acp");
  });

  it("names a front forwarding to a remote agent after the agent's address", () => {
    expect(deriveTapName({ command: [], url: "ws://127.0.0.1:9000/acp", cwd: "/srv/app" })).toBe(
      "agent at 127.0.0.1:9000 @ app",
    );
    expect(deriveTapName({ cwd: "/srv/app" })).toBe("tap @ app");
  });

  it("cuts a very long name", () => {
    const name = deriveTapName({ command: ["x".repeat(300)], cwd: "/r" });
    expect(name).toHaveLength(MAX_TAP_NAME_CHARS);
    expect(name.endsWith("…")).toBe(true);
  });
});

describe("checkTapName", () => {
  it("accepts ordinary names and refuses empty, overlong and control characters", () => {
    expect(checkTapName("claude, repro of #42")).toBeUndefined();
    expect(checkTapName("   ")).toMatch(/non-empty/);
    expect(checkTapName("x".repeat(MAX_TAP_NAME_CHARS + 1))).toMatch(/at most/);
    expect(checkTapName("two\nlines")).toMatch(/control characters/);
  });
});

describe("traceName", () => {
  const base = { format: TRACE_FORMAT, version: 1, tool: "t", startedAt: "2026-01-01T00:00:00Z" } as const;
  it("uses the header's name when it has one", () => {
    expect(traceName({ ...base, name: "QA repro", agent: { command: ["codex-acp"] } }, "id")).toBe(
      "QA repro",
    );
  });
  it("derives one for a trace written before taps had names, else falls back", () => {
    expect(traceName({ ...base, agent: { command: ["npx", "codex-acp"], cwd: "/home/me/web" } }, "id")).toBe(
      "codex-acp @ web",
    );
    expect(traceName(base, "20260101T000000Z-abc")).toBe("20260101T000000Z-abc");
    expect(traceName(null, "file.jsonl")).toBe("file.jsonl");
    // an untrusted header whose fields have the wrong types
    const odd = { ...base, name: 7, agent: { command: "rm -rf" } } as unknown as typeof base;
    expect(traceName(odd, "id")).toBe("id");
  });
});
