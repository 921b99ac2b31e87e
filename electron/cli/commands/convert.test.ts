import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { cliPath } from "../../tools/testing/cli.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-convert-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixtures = join(import.meta.dirname, "../../../e2e/fixtures/imports");

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [cliPath(), ...args], { encoding: "utf8", timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const lines = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("analyze on each imported format (built CLI)", () => {
  it.each([
    [
      "zed-copy-all.json",
      1,
      [
        "Imported from Zed ACP log (Copy All); it has no timestamps: rows are in order, but times, durations and latencies are unknown; frames were rebuilt from parsed JSON, not the bytes on the wire.",
        "[VIOLATION] duplicate-insert: 1",
        "1 Agent violation(s), 0 Client issue(s)",
      ],
    ],
    [
      "sacp-trace.jsons",
      0,
      [
        "Imported from sacp/symposium trace (.jsons); its times count from the trace's start",
        "[ok] deduplicated: 1",
        "0 Agent violation(s), 0 Client issue(s)",
      ],
    ],
    [
      "acp-inspector.jsonl",
      0,
      [
        "Imported from ACP-inspector recording (JSONL).",
        "[ok] retried-after-error: 1",
        "0 Agent violation(s)",
      ],
    ],
    [
      "chrome-websocket.har",
      0,
      ["Imported from HAR (browser network capture).", "2 connection(s)", "[ok] deduplicated: 1"],
    ],
    [
      "streamable-http.har",
      1,
      [
        "Imported from HAR (browser network capture); frames streamed in one HTTP response all carry that response's end time.",
        "[VIOLATION] duplicate-insert: 1",
      ],
    ],
  ])("%s: exit %i and the verdicts", (file, status, expected) => {
    const r = cli("analyze", join(fixtures, file));
    expect(r.stderr).toBe("");
    for (const text of expected) expect(r.stdout).toContain(text);
    expect(r.status).toBe(status);
  });

  it("a Zed log's attempts show no latency, an ACP-inspector recording's do", () => {
    const zed = JSON.parse(cli("analyze", "--json", join(fixtures, "zed-copy-all.json")).stdout);
    expect(zed.header.imported).toEqual({ format: "zed-log", lacks: ["timestamps", "exact-bytes"] });
    expect(zed.submissions[0].attempts.map((a: { latencyMs: number | null }) => a.latencyMs)).toEqual([
      null,
      null,
    ]);
    const insp = JSON.parse(cli("analyze", "--json", join(fixtures, "acp-inspector.jsonl")).stdout);
    expect(insp.submissions[0].attempts.map((a: { latencyMs: number }) => a.latencyMs)).toEqual([480, 1900]);
  });

  it("junk is refused with exit 2 and a message naming the formats it reads", () => {
    const junk = join(dir, "junk.har");
    writeFileSync(junk, "PK\u0003\u0004 not a capture\n");
    const r = cli("analyze", junk);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "not a trace file or a supported import: not JSON; expected an acp-retry-inspector trace",
    );
  });
});

describe("convert (built CLI)", () => {
  const trace = new TraceScript(1_769_861_101_250.5, 0.75)
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2 })
    .raw(1, "agent->client", '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}\r')
    .prompt(1, 1, "s1", "déjà vu ✓", "key-cli-1")
    .inserted(1, 1, "m1", { dropped: true })
    .close(1)
    .open(2)
    .prompt(2, 1, "s1", "déjà vu ✓", "key-cli-1")
    .raw(2, "agent->client", "Loading model...")
    .inserted(2, 1, "m1");
  const frameBytes = (rs: readonly TraceRecord[]) =>
    rs.filter((r): r is FrameRecord => r.type === "frame").map((f) => [f.conn, f.dir, f.raw]);

  it.each(["websocket", "http"])(
    "trace -> har -> trace keeps every frame's bytes and order (%s)",
    (style) => {
      const src = join(dir, `src-${style}.jsonl`);
      writeFileSync(src, trace.jsonl());
      const har = join(dir, `out-${style}.har`);
      const toHar = cli("convert", src, "--to", "har", "--har-style", style, "-o", har);
      expect(toHar.status).toBe(0);
      expect(statSync(har).mode & 0o777).toBe(0o600);
      const doc = JSON.parse(readFileSync(har, "utf8"));
      expect(doc.log.version).toBe("1.2");
      if (style === "websocket") expect(doc.log.entries[0]._webSocketMessages).toHaveLength(4);
      else expect(doc.log.entries[0].request.postData.text).toContain('"method":"initialize"');
      const back = join(dir, `back-${style}.jsonl`);
      const toTrace = cli("convert", har, "--to", "trace", "-o", back);
      expect(toTrace.status).toBe(0);
      expect(toTrace.stderr).toContain("HAR (browser network capture), 10 records");
      const [header, ...records] = lines(readFileSync(back, "utf8"));
      expect(frameBytes(records)).toEqual(frameBytes(trace.records));
      expect(records).toEqual(trace.records);
      expect(header.imported).toEqual({ format: "har", lacks: [] });
      // analyze gives the same verdicts on the original and on the round trip.
      const verdicts = (f: string) => JSON.parse(cli("analyze", "--json", f).stdout).verdictCounts;
      expect(verdicts(back)).toEqual(verdicts(src));
    },
  );

  it("converts a Zed log to a trace on stdout, says what it lacks on stderr; analyze reads the result", () => {
    const r = cli("convert", join(fixtures, "zed-copy-all.json"), "--to", "trace");
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("Zed ACP log (Copy All), 12 records");
    expect(r.stderr).toContain("it has no timestamps");
    const [header, ...records] = lines(r.stdout);
    expect(header).toMatchObject({ format: "acp-retry-inspector-trace", imported: { format: "zed-log" } });
    expect(records).toHaveLength(12);
    const out = join(dir, "zed.trace.jsonl");
    writeFileSync(out, r.stdout);
    const a = cli("analyze", out);
    expect(a.status).toBe(1);
    expect(a.stdout).toContain("it has no timestamps");
  });

  it("refuses an existing output file, a bad --to, and junk input", () => {
    const existing = join(dir, "exists.har");
    writeFileSync(existing, "mine");
    const r = cli("convert", join(fixtures, "sacp-trace.jsons"), "--to", "har", "-o", existing);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("it already exists");
    expect(readFileSync(existing, "utf8")).toBe("mine");
    expect(cli("convert", join(fixtures, "sacp-trace.jsons"), "--to", "pdf").stderr).toContain(
      "--to must be trace or har",
    );
    const junk = join(dir, "junk.txt");
    writeFileSync(junk, "[1,2,3]");
    const j = cli("convert", junk, "--to", "trace");
    expect(j.status).toBe(2);
    expect(j.stderr).toContain("a JSON array that is not a Zed ACP log");
  });
});
