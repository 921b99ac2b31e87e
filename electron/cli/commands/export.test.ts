import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import { redactTrace } from "../../../shared/trace/redact.js";
import { plantedTrace, survivingSecrets } from "../../../shared/trace/testing/planted-secrets.js";
import { cliPath } from "../../tools/testing/cli.js";
import { TERMINAL_CONTROL } from "../../tools/testing/terminal-controls.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = "out.jsonl") => join(dir, `${++n}-${name}`);

const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const TOKEN = "ghp_R4nd0mT0kenValue1234";
const PROMPT = "PINEAPPLE please deploy the billing service";

/** A session with content and credentials: a keyed prompt, an MCP server with a bearer header, an agent argv with a key. */
function session(): TraceScript {
  return new TraceScript()
    .spawn(7, ["my-agent", `--api-key=${TOKEN}`])
    .open(1)
    .request(1, "client->agent", 1, "session/new", {
      cwd: "/home/u/p",
      mcpServers: [
        {
          type: "http",
          name: "gh",
          url: "https://mcp.example/mcp",
          headers: [{ name: "Authorization", value: `Bearer ${TOKEN}` }],
        },
      ],
    })
    .result(1, "agent->client", 1, { sessionId: "s-1" })
    .prompt(1, 2, "s-1", PROMPT, KEY)
    .inserted(1, 2, "m1")
    .stderr(7, `agent log: ${PROMPT}`)
    .close(1);
}

function writeTrace(text: string, name = "trace.jsonl"): string {
  const path = fresh(name);
  writeFileSync(path, text);
  return path;
}

function exportCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath(), "export", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("acp-retry-inspector export", { timeout: 60_000 }, () => {
  it("is redacted by default, with the one redaction function the app's export uses", async () => {
    const t = session();
    const trace = writeTrace(t.jsonl());
    const r = await exportCli(trace);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const expected = redactTrace(t.header(), t.records, { full: false });
    expect(r.stdout).toBe(encodeHeader(expected.header) + expected.records.map(encodeRecord).join(""));
    for (const secret of [TOKEN, "PINEAPPLE"]) expect(r.stdout).not.toContain(secret);
    expect(r.stdout).toContain(KEY);
    expect(JSON.parse(r.stdout.split("\n")[0] ?? "")).toMatchObject({ redacted: true });
  });

  it("-o FILE: created 0600, the same bytes; analyze gives the same verdicts on it", async () => {
    const t = session();
    const out = fresh();
    const trace = writeTrace(t.jsonl());
    const r = await exportCli(trace, "-o", out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`wrote ${t.records.length} record(s) to ${out} (redacted)`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const expected = redactTrace(t.header(), t.records, { full: false });
    expect(readFileSync(out, "utf8")).toBe(
      encodeHeader(expected.header) + expected.records.map(encodeRecord).join(""),
    );
    const verdicts = (path: string) => {
      const doc = JSON.parse(
        spawnSync(process.execPath, [cliPath(), "analyze", "--json", path], { encoding: "utf8" }).stdout,
      );
      return { counts: doc.verdictCounts, submissions: doc.submissions.map((x: { key: string }) => x.key) };
    };
    expect(verdicts(out)).toEqual(verdicts(trace));
    expect(verdicts(out).submissions).toEqual([KEY]);
  });

  it("--full exports the trace as recorded, and says what it holds", async () => {
    const t = session();
    const out = fresh();
    const r = await exportCli(writeTrace(t.jsonl()), "--full", "-o", out);
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(t.jsonl());
    expect(r.stderr).toContain("--full: the export holds every prompt, file and credential of the trace");
  });

  it.each([
    ["an existing file", (path: string) => writeFileSync(path, "mine\n"), "it already exists"],
    [
      "a symbolic link",
      (path: string) => {
        writeFileSync(`${path}.target`, "mine\n");
        symlinkSync(`${path}.target`, path);
      },
      "it is a symbolic link",
    ],
  ])("never replaces or follows %s given as -o, and exits 2", async (_, make, message) => {
    const out = fresh();
    make(out);
    const target = existsSync(`${out}.target`) ? `${out}.target` : out;
    const r = await exportCli(writeTrace(session().jsonl()), "-o", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(readFileSync(target, "utf8")).toBe("mine\n");
  });

  it("keeps every record before a half-written last line, flags it in a closing note, never prints its text", async () => {
    const t = session();
    const trace = writeTrace(`${t.jsonl()}{"seq":99,"ts":1,"type":"frame","raw":"${TOKEN} PINEAPPLE`);
    const out = fresh();
    const r = await exportCli(trace, "-o", out);
    expect(r.code).toBe(0);
    const lastLine = t.records.length + 2;
    expect(r.stderr).toContain(
      `the last line (${lastLine}) of ${trace} is half-written (a tap killed mid-write)`,
    );
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stderr).not.toContain("PINEAPPLE");
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(t.records.length + 2);
    expect(JSON.parse(lines.at(-1) ?? "")).toEqual({
      seq: t.records.length + 1,
      ts: t.records.at(-1)?.ts,
      type: "note",
      level: "warn",
      text: `export: 1 unreadable line(s) of the original trace were left out: line ${lastLine} (truncated last line)`,
    });
    expect(readFileSync(out, "utf8")).not.toContain(TOKEN);
  });

  it("-o of a trace of many chunks: every chunk waits for drain without leaving a listener behind (no MaxListenersExceededWarning)", async () => {
    // 64 records of 64 KB: 16 chunks of 256 KiB, each written to a file stream that wants a drain
    const t = new TraceScript().open(1);
    for (let i = 1; i <= 64; i++)
      t.request(1, "client->agent", i, "fs/write_text_file", { path: "/p", content: "w".repeat(64_000) });
    const out = fresh();
    const r = await exportCli(writeTrace(t.jsonl()), "--full", "-o", out);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/Warning/);
    expect(readFileSync(out, "utf8")).toBe(t.jsonl());
  });

  it("prints terminal-safe JSON on stdout: still the same records", async () => {
    const t = new TraceScript().request(1, "client->agent", 1, "x/\u009b2J", { sessionId: "s\u202e1" });
    const r = await exportCli(writeTrace(t.jsonl()), "--full");
    expect(r.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([t.header(), ...t.records]);
  });

  it.each([
    ["a missing file", () => join(dir, "nope.jsonl"), "cannot read trace file"],
    ["a file that is not a trace", () => writeTrace("hello\n", "notes.txt"), "not a trace file"],
    ["an empty file", () => writeTrace("", "empty.jsonl"), "not a trace file"],
    ["a folder", () => dir, "cannot read trace file"],
  ])("exits 2 on %s and creates no output", async (_, path, message) => {
    const out = fresh();
    const r = await exportCli(path(), "-o", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(out)).toBe(false);
  });

  it("exits 2 on usage errors, and documents itself in --help", async () => {
    expect((await exportCli()).code).toBe(2);
    expect((await exportCli("a", "b")).stderr).toContain("expected exactly one TRACE file");
    expect((await exportCli("--frobnicate", "a")).stderr).toContain("unknown option --frobnicate");
    expect((await exportCli("a", "-o")).stderr).toContain("-o needs a file path");
    const help = await exportCli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: acp-retry-inspector export TRACE [-o FILE] [--full]");
  });

  it("never lets a planted secret through, through the real CLI on a real file (property)", async () => {
    await fc.assert(
      fc.asyncProperty(plantedTrace, fc.boolean(), async (planted, toFile) => {
        const trace = writeTrace(planted.jsonl);
        const out = fresh();
        const r = toFile ? await exportCli(trace, "-o", out) : await exportCli(trace);
        expect(r.code).toBe(0);
        const text = toFile ? readFileSync(out, "utf8") : r.stdout;
        expect(survivingSecrets(text, planted.secrets)).toEqual([]);
        expect(survivingSecrets(`${JSON.stringify(r.stderr)}\n`, planted.secrets)).toEqual([]);
        // the secrets were really on disk before the export
        expect(survivingSecrets(readFileSync(trace, "utf8"), planted.secrets)).toEqual(planted.secrets);
      }),
      { numRuns: 25 },
    );
  });
});
