/**
 * Issue 31, `serve --otlp` against a hostile frame: a plain tap relaying a `session/prompt` whose
 * prompt is 8,000 (or 100,000) nested arrays once killed the hub (its span export ran the analyzer's
 * recursive canonical JSON writer on every record it received). Real processes: a loopback OTLP
 * receiver, `serve --otlp`, a tap between a raw client (this test's pipe) and a scripted agent,
 * then a normal demo session through another tap on the same hub.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoAgent, demoClient, exited, printed, Scratch } from "../tap/testing/peers.js";
import { scriptedAgent, startProxy, within } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";
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

/** A keyed `session/prompt` request whose prompt is `depth` nested arrays. */
function deepPrompt(id: number, depth: number): string {
  const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  return `{"jsonrpc":"2.0","id":${id},"method":"session/prompt","params":{"sessionId":"s-deep","prompt":${nested},"idempotencyKey":"k-deep-${depth}"}}`;
}

/** Every frame `raw` in the hub's trace files under `dir` (its own copy of what the taps sent). */
function hubFrames(dir: string): string[] {
  const raws: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".jsonl")))
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line.includes('"type":"frame"')) continue;
      try {
        const raw = (JSON.parse(line) as { raw?: unknown }).raw;
        if (typeof raw === "string") raws.push(raw);
      } catch {}
    }
  return raws;
}

/** Polls until `test` holds (the hub writes its copy as records arrive). */
async function until(test: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!test()) await new Promise((resolve) => setTimeout(resolve, 100));
    })(),
    30_000,
    what,
  );
}

describe("serve --otlp with a tap relaying a deeply nested prompt", { timeout: 120_000 }, () => {
  it("stays up, keeps the frame in its copy, and still exports a later normal session", async () => {
    const hubTraces = scratch.path("hub-traces");
    const hub = scratch.spawnCli(["serve", "--traces-dir", hubTraces, "--otlp", receiver.endpoint]);
    let hubErr = "";
    hub.stderr?.on("data", (d: Buffer) => {
      hubErr += d.toString("utf8");
    });
    await printed(hub, "stdout", /^http:\/\/\S+\n/, "the hub's URL");

    // A plain tap (it finds the hub through the scratch rendezvous) relays both deep prompts; the
    // scripted agent answers each request, so each is a settled submission the hub exports.
    const tap = startProxy(["--trace", scratch.path("deep-tap.jsonl")], scriptedAgent("rpc"), scratch.env);
    const lines = [deepPrompt(1, 8_000), deepPrompt(2, 100_000)];
    tap.child.stdin.write(`${lines.join("\n")}\n`);
    await within(tap.stdoutContains('"id":2'), 30_000, "the agent's answer to the 100,000-deep prompt");
    await until(
      () => lines.every((l) => hubFrames(hubTraces).includes(l)),
      "both deep frames, byte for byte, in the hub's copy",
    );
    tap.child.stdin.end();
    const tapDone = await within(tap.done, 30_000, "the tap to exit");
    expect(tapDone.code).toBe(0);
    expect(hub.exitCode).toBeNull();
    expect(hub.signalCode).toBeNull();

    // A later normal session on the same hub: a keyed retry after a dropped answer.
    const trace = scratch.path("normal.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      "--",
      process.execPath,
      cliPath(),
      "proxy",
      "--trace",
      trace,
      "--fault",
      "drop-response:method=session/prompt",
      "--",
      ...demoAgent(scratch, "--turn-ms", "100"),
    ]);
    expect(report.ok).toBe(true);
    await within(
      (async () => {
        while (
          !receiver.spans.some(
            (s) => s.name.startsWith("invoke_agent") && s.attributes["acp.verdict"] === "deduplicated",
          )
        )
          await receiver.waitForSpans(receiver.spans.length + 1);
      })(),
      30_000,
      "the normal session's submission span",
    );
    expect(hub.exitCode).toBeNull();
    expect(hubErr).not.toMatch(/RangeError|Maximum call stack/);
    // The hub's copy holds the later session too, beside the deep frames.
    expect(hubFrames(hubTraces).some((raw) => raw.includes('"deploy it"'))).toBe(true);
    hub.kill("SIGTERM");
    const end = await within(exited(hub), 15_000, "the hub to exit");
    expect(end.signal === "SIGTERM" || end.code === 0).toBe(true);
  });
});
