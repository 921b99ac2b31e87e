/**
 * Issue 31, `--otlp` against hostile frames: a prompt of 8,000 nested arrays once killed the tap
 * (the analyzer behind the span export overflowed the stack) and the frame was not even in the
 * trace; an Agent's error text reached the collector verbatim; `--otlp` printed `?api_key=`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scratch } from "../tap/testing/peers.js";
import { scriptedAgent, startProxy, traceRecords, within } from "../tap/testing/proxy-run.js";
import { type OtlpReceiver, startOtlpReceiver } from "./testing/otlp-receiver.js";

let scratch: Scratch;
let receiver: OtlpReceiver;
beforeEach(async () => {
  scratch = new Scratch();
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
  scratch.cleanup();
});

const DEEP = 8_000;
const SECRET = "sk-live-PLANTEDSECRET0042";

/** The client's lines: a deep prompt, an error answer quoting secrets and prompt text, then normal frames. */
function hostileLines(): string[] {
  const nested = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;
  return [
    `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":${nested}}}`,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "session/prompt",
      params: { sessionId: "s", prompt: [] },
    }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32603,
        message: `upstream said Authorization: Bearer ${SECRET} at https://api.example/v1?api_key=${SECRET} for PROMPT-TEXT-PAPAYA`,
      },
    }),
    JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s" } }),
  ];
}

describe("proxy --otlp with hostile frames", { timeout: 60_000 }, () => {
  it("forwards and records a prompt nested 8,000 deep, and exports no secret or prompt text", async () => {
    const trace = scratch.path("deep.jsonl");
    const run = startProxy(
      ["--no-hub", "--trace", trace, "--otlp", receiver.endpoint],
      scriptedAgent("echo"),
      scratch.env,
    );
    const input = Buffer.from(`${hostileLines().join("\n")}\n`);
    run.child.stdin.end(input);
    const done = await within(run.done, 30_000, "the proxy to exit");
    expect(done.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(done.code).toBe(0);
    // The echo agent answers every line: the client got every byte back, and the trace has both ways.
    expect(Buffer.compare(done.stdout, input)).toBe(0);
    const frames = (await traceRecords(trace)).filter((r) => r.type === "frame");
    expect(frames).toHaveLength(8);
    expect(frames.filter((f) => f.type === "frame" && f.raw.length > 2 * DEEP)).toHaveLength(2);
    // The error answer's span arrived, its status saying an error with the code, not the text.
    const failed = receiver.spans.find(
      (sp) => sp.status.code === 2 && sp.status.message.startsWith("-32603"),
    );
    expect(failed?.status.message).toMatch(/^-32603 \[agent error text: \d+ chars\]$/);
    const sent = JSON.stringify(receiver.spans);
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toContain("PAPAYA");
  });

  it("refuses an --otlp URL with query parameters without printing them", async () => {
    const run = startProxy(
      ["--no-hub", "--otlp", `${receiver.endpoint}/v1/traces?api_key=${SECRET}`],
      scriptedAgent("echo"),
      scratch.env,
    );
    const done = await within(run.done, 15_000, "the proxy to exit");
    expect(done.code).toBe(2);
    expect(done.stderr).toContain("must not carry query parameters");
    expect(done.stderr).not.toContain(SECRET);
  });
});
