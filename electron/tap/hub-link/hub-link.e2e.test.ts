/**
 * The proxy and the hub as real processes: discovery through the rendezvous file, a hub outage in
 * the middle of a session, and fault rules armed with `serve` + `fault` reaching a proxy.
 */

import { type ChildProcess, execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { takeFragmentToken } from "../../../shared/hub/hub-auth.js";
import { UI_PATH } from "../../../shared/hub/protocol-version.js";
import type { TapSummary } from "../../../shared/hub/tap-summary.js";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { cliPath } from "../../tools/testing/cli.js";
import {
  analyze,
  demoAgent,
  demoClient,
  exited,
  faultCli,
  Scratch,
  startFront,
  startHub,
  stopFront,
} from "../testing/peers.js";
import { SCRIPTED_AGENT, traceEvents, traceRecords, within } from "../testing/proxy-run.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** Subscribes to a hub's UI feed; `seen(text)` resolves once a frame containing `text` arrived (`(tap-attached)`: a tap attached). */
function watchHub(url: string): { seen(text: string): Promise<void>; close(): void } {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}${UI_PATH}`, {
    headers: { Authorization: `Bearer ${takeFragmentToken(u.hash).token}` },
  });
  const raws: string[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  ws.on("open", () => ws.send(JSON.stringify({ t: "subscribe", after: 0 })));
  ws.on("message", (data) => {
    const m = JSON.parse(data.toString()) as { t: string; events?: { kind: string; record?: TraceRecord }[] };
    if (m.t !== "events") return;
    for (const e of m.events ?? []) {
      if (e.record?.type === "frame") raws.push(e.record.raw);
      if (e.kind === "tap-attached") raws.push("(tap-attached)");
    }
    for (const w of [...waiters])
      if (raws.some((r) => r.includes(w.text))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  return {
    seen: (text) =>
      within(
        new Promise<void>((resolve) => {
          if (raws.some((r) => r.includes(text))) resolve();
          else waiters.push({ text, resolve });
        }),
        20_000,
        `the hub to show ${text}`,
      ),
    close: () => ws.terminate(),
  };
}

/** Collects a child's stdout; `has(text)` resolves once it contains `text`. */
function output(child: ChildProcess): { text(): string; has(text: string): Promise<void> } {
  let text = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout?.on("data", (d: Buffer) => {
    text += d.toString("utf8");
    for (const w of [...waiters])
      if (text.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  return {
    text: () => text,
    has: (t) =>
      within(
        new Promise<void>((resolve) => {
          if (text.includes(t)) resolve();
          else waiters.push({ text: t, resolve });
        }),
        20_000,
        `the proxy to echo ${t}`,
      ),
  };
}

const batch = (name: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `{"jsonrpc":"2.0","method":"note","params":{"batch":"${name}","i":${i}}}\n`,
  );

/** `taps --json` of the hub of `scratch`, polled until `ok` holds (bounded). */
async function tapsUntil(ok: (taps: TapSummary[]) => boolean, what: string): Promise<TapSummary[]> {
  let last: TapSummary[] = [];
  for (let i = 0; i < 150; i++) {
    const r = await promisify(execFile)(process.execPath, [cliPath(), "taps", "--json"], {
      env: scratch.env,
      timeout: 15_000,
    }).catch(() => undefined);
    last = r ? (JSON.parse(r.stdout) as TapSummary[]) : [];
    if (ok(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: taps says ${JSON.stringify(last)}`);
}

describe("a proxy that attaches to a hub after its agent started", { timeout: 90_000 }, () => {
  it("the hub gets the agent's spawn on attach and on re-attach to a new hub: taps shows the pid", async () => {
    const trace = scratch.path("late.jsonl");
    const proxy = scratch.spawnCli([
      "proxy",
      "--name",
      "late-tap",
      "--trace",
      trace,
      "--",
      ...demoAgent(scratch),
    ]);
    await within(
      (async () => {
        while (!(await traceRecords(trace).catch(() => [])).some((r) => r.type === "agent-spawn"))
          await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
      20_000,
      "the agent to start",
    );
    const spawned = (await traceRecords(trace)).find((r) => r.type === "agent-spawn");
    const pid = spawned?.type === "agent-spawn" ? spawned.pid : -1;
    await new Promise((resolve) => setTimeout(resolve, 700)); // the hub comes well after the agent

    const tracesDir = scratch.path("traces");
    const hubA = await startHub(scratch, tracesDir);
    const [a] = await tapsUntil(
      (ts) => ts.some((t) => t.name === "late-tap" && t.attached && t.agentPids.length > 0),
      "the late tap to be listed with its agent",
    );
    expect(a).toMatchObject({ name: "late-tap", attached: true, agentPids: [pid] });

    // A new hub (the first one died): the proxy re-attaches, and the new hub learns the pid too.
    hubA.child.kill("SIGKILL");
    await exited(hubA.child);
    await startHub(scratch, tracesDir);
    const [b] = await tapsUntil(
      (ts) => ts.some((t) => t.name === "late-tap" && t.attached && t.agentPids.length > 0),
      "the tap to re-attach with its agent",
    );
    expect(b).toMatchObject({ name: "late-tap", attached: true, agentPids: [pid] });
    proxy.stdin?.end();
    await within(exited(proxy), 15_000, "the proxy to exit");
  });
});

describe("proxy and hub as real processes", { timeout: 90_000 }, () => {
  it("survives a hub outage: nothing lost or altered, complete trace file, re-attaches to a new hub", async () => {
    const tracesDir = scratch.path("traces");
    const hubA = await startHub(scratch, tracesDir);
    const feedA = watchHub(hubA.url);
    const trace = scratch.path("outage.jsonl");
    const proxy = scratch.spawnCli([
      "proxy",
      "--trace",
      trace,
      "--",
      process.execPath,
      SCRIPTED_AGENT,
      "echo",
    ]);
    const out = output(proxy);
    const sent: string[] = [];
    const send = (lines: string[]) => {
      sent.push(...lines);
      proxy.stdin?.write(lines.join(""));
    };

    send(batch("one", 300));
    await out.has('"batch":"one","i":299}');
    await feedA.seen('"batch":"one","i":299}');
    feedA.close();
    hubA.child.kill("SIGKILL");
    await exited(hubA.child);

    send(batch("two", 300));
    await out.has('"batch":"two","i":299}');

    const hubB = await startHub(scratch, tracesDir);
    const feedB = watchHub(hubB.url);
    await feedB.seen("(tap-attached)"); // the proxy found the new hub by itself
    send(batch("three", 300));
    await out.has('"batch":"three","i":299}');
    await feedB.seen('"batch":"three","i":299}');
    feedB.close();
    proxy.stdin?.end();
    expect(await exited(proxy)).toEqual({ code: 0, signal: null });

    expect(out.text()).toBe(sent.join(""));
    const records = await traceRecords(trace);
    const frames = records.filter((r): r is FrameRecord => r.type === "frame");
    const expected = sent.map((l) => l.slice(0, -1));
    expect(frames.filter((f) => f.dir === "client->agent").map((f) => f.raw)).toEqual(expected);
    expect(frames.filter((f) => f.dir === "agent->client").map((f) => f.raw)).toEqual(expected);
    const notes = records.filter((r) => r.type === "note").map((r) => (r.type === "note" ? r.text : ""));
    expect(notes.filter((t) => t.startsWith("attached to the hub"))).toHaveLength(2);
    expect(notes).toContain("the hub went away; still forwarding");

    // The hubs wrote one file for this tap (hub B continued hub A's) with everything produced while
    // a hub was attached; what the tap produced during the outage may be missing there (reported
    // to hub B as a gap), never from the tap's own trace file.
    const files = readdirSync(tracesDir).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const stored = new Set(
      (await traceEvents(join(tracesDir, files[0] as string))).flatMap((e) =>
        e.kind === "record" ? [e.record.seq] : [],
      ),
    );
    const missing = frames.filter((f) => !stored.has(f.seq));
    expect(missing.filter((f) => !f.raw.includes('"batch":"two"'))).toEqual([]);
  });

  it("keeps forwarding byte for byte while the hub is SIGSTOPped mid-stream, and the hub catches up after SIGCONT", async () => {
    const hub = await startHub(scratch, scratch.path("traces"));
    const feed = watchHub(hub.url);
    const trace = scratch.path("stopped.jsonl");
    const proxy = scratch.spawnCli([
      "proxy",
      "--trace",
      trace,
      "--",
      process.execPath,
      SCRIPTED_AGENT,
      "echo",
    ]);
    const out = output(proxy);
    const sent: string[] = [];
    const send = (lines: string[]) => {
      sent.push(...lines);
      proxy.stdin?.write(lines.join(""));
    };
    send(batch("before", 200));
    await feed.seen('"batch":"before","i":199}');
    hub.child.kill("SIGSTOP");
    try {
      // a frozen hub neither reads nor acks: the session must not notice
      send(batch("frozen", 2_000));
      await out.has('"batch":"frozen","i":1999}');
    } finally {
      hub.child.kill("SIGCONT");
    }
    await feed.seen('"batch":"frozen","i":1999}');
    feed.close();
    proxy.stdin?.end();
    expect(await exited(proxy)).toEqual({ code: 0, signal: null });
    expect(out.text()).toBe(sent.join(""));
    const frames = (await traceRecords(trace)).filter((r): r is FrameRecord => r.type === "frame");
    expect(frames.filter((f) => f.dir === "client->agent").map((f) => f.raw)).toEqual(
      sent.map((l) => l.slice(0, -1)),
    );
  });

  // Session 4 saw a hub-attached tap exit 0 after kill-agent: with the agent gone and its pipes
  // closed, only the link's unref'd socket and timer were left while it waited for the hub's ack,
  // so Node's loop ran dry and the process ended with status 0 before it could die of SIGKILL.
  it("dies of the agent's SIGKILL after a kill-agent while the hub does not answer, never with status 0", async () => {
    const hub = await startHub(scratch, scratch.path("traces"));
    const feed = watchHub(hub.url);
    const trace = scratch.path("killed.jsonl");
    const proxy = scratch.spawnCli([
      "proxy",
      "--trace",
      trace,
      "--fault",
      "kill-agent:method=session/new",
      "--",
      process.execPath,
      SCRIPTED_AGENT,
      "echo",
    ]);
    const out = output(proxy);
    proxy.stdin?.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n');
    await out.has('"method":"initialize"');
    await feed.seen('"method":"initialize"');
    feed.close();
    hub.child.kill("SIGSTOP"); // records from now on stay unacknowledged
    try {
      proxy.stdin?.write('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}\n');
      expect(await within(exited(proxy), 20_000, "the proxy to end")).toEqual({
        code: null,
        signal: "SIGKILL",
      });
    } finally {
      hub.child.kill("SIGCONT");
    }
    expect((await traceRecords(trace)).find((r) => r.type === "agent-exit")).toMatchObject({
      signal: "SIGKILL",
    });
  });

  it("applies a rule armed with `serve` + `fault` on the one attached tap, and the hub counts it as used", async () => {
    const hub = await startHub(scratch, scratch.path("traces"));
    const trace = scratch.path("hub-fault.jsonl");
    const front = await startFront(scratch, ["--trace", trace], demoAgent(scratch, "--turn-ms", "100"));
    await within(
      (async () => {
        const attached = (rs: TraceRecord[]) =>
          rs.some((r) => r.type === "note" && r.text.startsWith("attached to the hub"));
        while (!attached(await traceRecords(trace).catch(() => [])))
          await new Promise((r) => setTimeout(r, 50));
      })(),
      15_000,
      "the front to attach to the hub",
    );
    // one tap attached: no --tap needed; the answer comes once the tap acknowledged
    const armed = await faultCli(scratch, ["drop-response", "--method", "session/prompt", "--json"]);
    const ruleId = (JSON.parse(armed) as { rule: { id: string } }).rule.id;
    expect(JSON.parse(armed)).toMatchObject({ fault: { state: "armed", taps: [{ acked: true }] } });
    expect(await faultCli(scratch, ["list"])).toContain(ruleId);

    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      "--url",
      front.wsUrl,
      "--token-file",
      front.tokenFile,
    ]);
    expect(report.ok).toBe(true);
    await stopFront(front.child);
    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "fault")).toMatchObject([{ action: "drop-response", ruleId }]);
    const model = await analyze(scratch, trace);
    const attempts = model.submissions.flatMap((s) => s.attempts);
    expect(attempts[0]?.outcome).toMatchObject({ kind: "dropped", frame: "response" });
    expect(model.submissions.flatMap((s) => s.verdicts.map((v) => v.name))).toContain("deduplicated");
    const listed = await faultCli(scratch, ["list"]);
    expect(listed).toContain("no fault rules armed");
    expect(listed).toContain(ruleId); // among the recently used, with where it fired
    hub.child.kill("SIGTERM");
  });
});
