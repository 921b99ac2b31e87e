/**
 * Issue 30 item 4 through a real proxy, reference peers and a loopback OTLP receiver: after the
 * inspector's own retry (`lose-and-retry`) on an agent that inserts again, the root span's
 * `acp.message_id` is the messageId the client printed (the retry's, forwarded under its id), not
 * the dropped answer's, and `acp.settled` is true because the client saw that answer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoAgent, demoClient, Scratch, tapped } from "../tap/testing/peers.js";
import { within } from "../tap/testing/proxy-run.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./testing/otlp-receiver.js";

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

/** Waits for the root span and the two attempts' spans. */
async function rootAndAttempts(): Promise<{ root: ReceivedSpan; attempts: ReceivedSpan[] }> {
  const attempts = () => receiver.spans.filter((s) => s.name === "session/prompt");
  const root = () => receiver.spans.find((s) => s.name.startsWith("invoke_agent"));
  await within(
    (async () => {
      while (attempts().length < 2 || root() === undefined)
        await receiver.waitForSpans(receiver.spans.length + 1);
    })(),
    30_000,
    "the submission's spans",
  );
  return { root: root() as ReceivedSpan, attempts: attempts() };
}

describe("proxy --otlp after the inspector's own retry", { timeout: 90_000 }, () => {
  it("naive agent: the root's acp.message_id is the messageId the client got, and it is settled", async () => {
    const report = await demoClient(scratch, [
      "--retries",
      "0",
      "--timeout",
      "20000",
      "--no-wait-idle",
      "--",
      ...tapped(
        scratch.path("t.jsonl"),
        ["--fault", "lose-and-retry:method=session/prompt", "--otlp", receiver.endpoint],
        demoAgent(scratch, "--mode", "naive", "--turn-ms", "100"),
      ),
    ]);
    expect(report.ok).toBe(true);
    const got = report.submissions[0]?.messageId;
    const { root, attempts } = await rootAndAttempts();
    const answered = attempts.map((a) => a.attributes["acp.message_id"]);
    expect(new Set(answered).size).toBe(2); // the naive agent inserted again: the dropped answer's id differs
    expect(answered).toContain(got);
    expect(root.attributes["acp.message_id"]).toBe(got);
    expect(root.attributes["acp.settled"]).toBe(true);
    expect(root.attributes["acp.verdict"]).toBe("duplicate-insert");
  });
});
