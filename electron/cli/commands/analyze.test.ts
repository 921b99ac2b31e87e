import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { cliPath } from "../../tools/testing/cli.js";
import { TERMINAL_CONTROL as ACTIVE } from "../../tools/testing/terminal-controls.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-analyze-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";

function traceFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function analyze(...args: string[]) {
  const r = spawnSync(process.execPath, [cliPath(), "analyze", ...args], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const clean = new TraceScript()
  .open(1)
  .prompt(1, 7, "s1", "hello there", KEY)
  .userMessage(1, "s1", "m1")
  .close(1, "EOF")
  .open(2)
  .request(2, "client->agent", 1, "session/resume", { sessionId: "s1" })
  .result(2, "agent->client", 1, {})
  .prompt(2, 2, "s1", "hello there", KEY)
  .inserted(2, 2, "m1")
  .raw(2, "agent->client", "garbage line");

const violating = new TraceScript()
  .prompt(1, 1, "s1", "hi", KEY)
  .inserted(1, 1, "m1")
  .prompt(1, 2, "s1", "hi", KEY)
  .inserted(1, 2, "m2");

const clientIssueOnly = new TraceScript()
  .open(1)
  .prompt(1, 1, "s1", "hi")
  .close(1)
  .open(2)
  .prompt(2, 1, "s1", "hi")
  .inserted(2, 1, "m");

/** Escape sequences a hostile peer can put on the wire: clear screen, OSC 52 clipboard write, hidden text, 8-bit CSI. */
const CLEAR = "\u001b[2J";
const CLIPBOARD = "\u001b]52;c;SGVsbG8=\u0007";
const HIDDEN = "\u001b[8m";
const CSI8 = "\u009b2J";

const hostile = new TraceScript()
  .spawn(7, ["my-agent", `--name=${HIDDEN}`])
  .open(1)
  .prompt(1, 1, `s${CLEAR}`, `hi ${CLIPBOARD}`, KEY)
  .inserted(1, 1, `m${CSI8}`)
  .prompt(1, 2, `s${CLEAR}`, "again", `bad key ${HIDDEN}`)
  .error(1, 2, -32603, `boom ${CLEAR}`)
  .request(1, "client->agent", 3, `x/${CLEAR}`, {})
  .notify(1, "agent->client", `n/${CLIPBOARD}`, {})
  .raw(1, "agent->client", `noise ${CSI8} \u202etxt.exe`)
  .close(1, `gone ${HIDDEN}\n  [VIOLATION] forged-line`);

describe("acp-retry-inspector analyze", () => {
  it("prints submissions with attempts, connections, outcomes and verdicts; exit 0 when clean", () => {
    const r = analyze(traceFile("clean.jsonl", clean.jsonl()));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`key ${KEY}  "hello there"`);
    expect(r.stdout).toContain("conn #1 id 7");
    expect(r.stdout).toContain("closed at seq 4 (EOF)");
    expect(r.stdout).toContain(
      "seq 2  lost: connection #1 closed before the answer, after a user message update showed it inserted → messageId m1",
    );
    expect(r.stdout).toContain("conn #2 id 2");
    expect(r.stdout).toContain("answered with the original messageId m1 (no new insert)");
    expect(r.stdout).toContain("2 attempt(s), 1 insert(s) seen, inserted once → messageId m1");
    expect(r.stdout).toContain("[ok] deduplicated");
    expect(r.stdout).toContain("session/resume (client->agent)  [safe]");
    expect(r.stdout).toContain("Malformed frames (1)");
    expect(r.stdout).toContain("0 Agent violation(s), 0 Client issue(s)");
  });

  it("exits 1 and names the violation when the Agent inserted twice", () => {
    const r = analyze(traceFile("dup.jsonl", violating.jsonl()));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("[VIOLATION] duplicate-insert");
    expect(r.stdout).toContain("The Agent MUST NOT insert a second message for a key it has recorded.");
  });

  it("gives the same model as JSON with --json", () => {
    const r = analyze("--json", traceFile("dup2.jsonl", violating.jsonl()));
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary).toEqual({ violations: 1, clientIssues: 0, notes: 0, exitStatus: 1 });
    expect(doc.submissions).toHaveLength(1);
    expect(doc.submissions[0].key).toBe(KEY);
    expect(doc.submissions[0].messageIds).toEqual(["m1", "m2"]);
    expect(doc.submissions[0].attempts.map((a: { id: number }) => a.id)).toEqual([1, 2]);
    expect(doc.verdictCounts["duplicate-insert"]).toBe(1);
    expect(doc.header.format).toBe("acp-retry-inspector-trace");
  });

  it("exits 0 on Client issues alone, 1 with --fail-on-client-issues", () => {
    const path = traceFile("client.jsonl", clientIssueOnly.jsonl());
    const plain = analyze(path);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain("[client issue] unkeyed-resend");
    expect(analyze(path, "--fail-on-client-issues").status).toBe(1);
  });

  it("says the same words in the text report and in --json", () => {
    const t = new TraceScript()
      .spawn(4)
      .open(1)
      .prompt(1, 1, "s1", "hi", KEY)
      .inserted(1, 1, "m1", { dropped: true })
      .prompt(1, 2, "s1", "hi", KEY)
      .inserted(1, 2, "m1")
      .prompt(1, 3, "s1", "deploy", "b1c2d3e4-0000-4000-8000-000000000001")
      .prompt(1, 4, "s1", "deploy", "b1c2d3e4-0000-4000-8000-000000000001")
      .cancelRequest(1, 3)
      .error(1, 3, -32800, "cancelled")
      .error(1, 4, -32800, "cancelled")
      .prompt(1, 5, "s1", "long task", "b1c2d3e4-0000-4000-8000-000000000002")
      .exit(4, null, "SIGKILL");
    const path = traceFile("words.jsonl", t.jsonl());
    const text = analyze(path).stdout;
    const doc = JSON.parse(analyze("--json", path).stdout);
    const said = doc.submissions.flatMap((s: { result: string; attempts: { words: string }[] }) => [
      s.result,
      ...s.attempts.map((a) => a.words),
    ]);
    expect(said).toEqual([
      "inserted once → messageId m1",
      "inserted → messageId m1; answer dropped by the inspector: the client never saw it",
      "answered with the original messageId m1 (no new insert)",
      "withdrawn: every attempt cancelled (-32800), nothing inserted",
      "cancelled (-32800) before insertion",
      "cancelled (-32800) before insertion",
      "unknown: no answer reached the client; whether it inserted is unknown",
      "lost: the agent died before answering; whether it inserted is unknown",
    ]);
    for (const words of said) expect(text).toContain(words);
    expect(text).toContain("[ok] withdrawn: all 2 attempts were answered -32800: nothing inserted");
    // "not inserted" only with an error or -32800 answer: never about the attempt the agent's death cut off.
    expect(text.slice(0, text.indexOf("Other requests"))).not.toContain("not inserted");
    expect(doc.submissions[0].clientMessageId).toBe("m1");
  });

  it("prints a close without a reason as closed, never '(undefined)'", () => {
    const t = new TraceScript().open(1).prompt(1, 1, "s1", "hi", KEY);
    const lines = `${t.jsonl()}${JSON.stringify({ type: "conn-close", seq: 3, ts: t.startTs + 3, conn: 1 })}\n`;
    const r = analyze(traceFile("noreason.jsonl", lines));
    expect(r.stdout).toMatch(/conn #1 stdio, 1 frames, closed at seq 3$/m);
    expect(r.stdout).not.toContain("undefined");
  });

  it("does not count the tap's own initialize as the client's", () => {
    const init = (id: number) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 2 } });
    const answer = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: 2 } });
    const t = new TraceScript()
      .open(1)
      .raw(1, "client->agent", init(0))
      .raw(1, "agent->client", answer(0))
      .raw(1, "client->agent", init(900), { origin: "tap" })
      .raw(1, "agent->client", answer(900), { origin: "tap" });
    const r = analyze(traceFile("tap-init.jsonl", t.jsonl()));
    expect(r.stdout).toContain("initialize (client->agent)  [safe]  1: 1 answered");
    expect(r.stdout).toContain(
      "initialize (client->agent, sent by the tap, not the client)  [safe]  1: 1 answered",
    );
  });

  it("keeps going past a truncated last line", () => {
    const r = analyze(traceFile("trunc.jsonl", `${violating.jsonl()}{"type":"frame","se`));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("Unreadable trace lines (1)");
  });

  it("keeps a record whose raw is not a string flagged, naming the field, instead of exiting 70", () => {
    const lines = violating.jsonl().split("\n");
    const bad = { ...JSON.parse(lines[2] as string), raw: 42 };
    lines.splice(2, 1, JSON.stringify(bad));
    const path = traceFile("raw-number.jsonl", lines.join("\n"));
    const r = analyze(path);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0); // the second insert's request is flagged, so no duplicate insert is judged
    expect(r.stdout).toContain("warning: 1 invalid record(s) were kept flagged and not analysed");
    expect(r.stdout).toContain("Invalid records (1)");
    expect(r.stdout).toContain(`line 3 frame seq ${bad.seq}: raw must be a string, got number`);
    const doc = JSON.parse(analyze("--json", path).stdout);
    expect(doc.invalid).toEqual([
      {
        line: 3,
        record: expect.objectContaining({
          seq: bad.seq,
          faults: [{ field: "raw", reason: "must be a string, got number" }],
        }),
      },
    ]);
    expect(doc.warnings).toEqual(["warning: 1 invalid record(s) were kept flagged and not analysed"]);
  });

  it("warns of records whose seq repeats or goes back and does not analyse them again", () => {
    const lines = clientIssueOnly.jsonl().split("\n");
    // the prompt of connection #1 read twice, then the first record again
    lines.splice(3, 0, lines[2] as string, lines[1] as string);
    const path = traceFile("repeated.jsonl", lines.join("\n"));
    const r = analyze(path);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(
      "warning: 2 record(s) with a repeated (1) or decreasing (1) seq were not analysed: seq 2 after 2, 1 after 2",
    );
    const doc = JSON.parse(analyze("--json", path).stdout);
    expect(doc.seqIssues).toEqual({
      repeated: 1,
      decreasing: 1,
      listed: [
        { seq: 2, after: 2 },
        { seq: 1, after: 2 },
      ],
    });
    expect(doc.warnings[0]).toContain("2 record(s) with a repeated (1) or decreasing (1) seq");
    // the same submissions as without the repeats: nothing pending was invented
    const plain = JSON.parse(analyze("--json", traceFile("plain.jsonl", clientIssueOnly.jsonl())).stdout);
    const revless = (rows: { rev: number }[]) => rows.map(({ rev: _, ...row }) => row);
    expect(revless(doc.submissions)).toEqual(revless(plain.submissions));
    expect(
      doc.submissions.flatMap((s: { attempts: { outcome: { kind: string } }[] }) =>
        s.attempts.map((a) => a.outcome.kind),
      ),
    ).not.toContain("pending");
  });

  it("warns of skipped seqs (records missing from the file), and counts an unreadable line as a possible holder", () => {
    const lines = clientIssueOnly.jsonl().trimEnd().split("\n");
    // records 2 and 3 gone (a copy that lost them), record 5 replaced by an unreadable line
    const holed = [lines[0], lines[1], ...lines.slice(4, 5), "not json", ...lines.slice(6)].join("\n");
    const r = analyze(traceFile("holed.jsonl", `${holed}\n`));
    expect(r.stdout.split("\n")[0]).toBe(
      "warning: 3 record(s) missing from this trace (its seqs skip them): seq 2-3 (2), seq 5 (1); 1 unreadable line(s) or record(s) without a valid seq may hold some of them",
    );
    const doc = JSON.parse(analyze("--json", traceFile("holed.jsonl", `${holed}\n`)).stdout);
    expect(doc.seqGaps).toEqual({
      gaps: 2,
      missing: 3,
      listed: [
        { from: 2, to: 3, missing: 2 },
        { from: 5, to: 5, missing: 1 },
      ],
    });
    expect(doc.warnings[0]).toMatch(/^warning: 3 record\(s\) missing/);
    // a whole trace has no such warning
    const whole = JSON.parse(analyze("--json", traceFile("whole.jsonl", clientIssueOnly.jsonl())).stdout);
    expect(whole.seqGaps).toBeUndefined();
    expect(whole.warnings).toBeUndefined();
  });

  it.each([
    ["a missing file", () => join(dir, "nope.jsonl"), "cannot read trace file"],
    ["a file that is not a trace", () => traceFile("notes.txt", "hello\n"), "not a trace file"],
    ["an empty file", () => traceFile("empty.jsonl", ""), "not a trace file"],
    ["a directory", () => dir, "cannot read trace file"],
  ])("exits 2 with a clear message on %s", (_, path, message) => {
    const r = analyze(path());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });

  it("prints text from the wire escaped, never as terminal control sequences", () => {
    const lines = hostile.jsonl().split("\n");
    // An unreadable line in the middle: the reader's message quotes it.
    lines.splice(4, 0, `${CLEAR}not json${CLIPBOARD}`);
    const r = analyze(traceFile("hostile.jsonl", lines.join("\n")));
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).toContain("\\x1b[2J");
    expect(r.stdout).toContain("\\x1b]52;c;SGVsbG8=\\x07");
    expect(r.stdout).toContain("\\x1b[8m");
    expect(r.stdout).toContain("gone \\x1b[8m\\n  [VIOLATION] forged-line");
    expect(r.stdout.split("\n").some((l) => l.trimStart().startsWith("[VIOLATION] forged-line"))).toBe(false);
  });

  it("keeps --json JSON of the same strings, with nothing a terminal acts on", () => {
    const r = analyze("--json", traceFile("hostile-json.jsonl", hostile.jsonl()));
    expect(r.stdout).not.toMatch(ACTIVE);
    const doc = JSON.parse(r.stdout);
    expect(doc.submissions[0].sessionId).toBe(`s${CLEAR}`);
    expect(doc.submissions[0].finalMessageId).toBe(`m${CSI8}`);
  });

  it("exits 2 on usage errors", () => {
    expect(analyze().status).toBe(2);
    expect(analyze("--frobnicate", "x").stderr).toContain("unknown option --frobnicate");
  });
});
