/**
 * A hub copy with missing records says so in its own file, and `analyze` warns about it: the tap's
 * real hub link (a small backlog, flooded while a batch is on its way) against a real `serve`
 * process on loopback, its copy read back from disk and through the real `analyze`.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rendezvousPath } from "../../hub-client/hub-paths.js";
import { cliPath } from "../../tools/testing/cli.js";
import { Scratch, startHub } from "../testing/peers.js";
import { within } from "../testing/proxy-run.js";
import { createHubLink, type HubLink } from "./hub-link.js";

const run = promisify(execFile);
let scratch: Scratch;
let link: HubLink | undefined;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(async () => {
  await link?.close(200);
  link = undefined;
  scratch.cleanup();
});

const frame = (seq: number) =>
  ({
    seq,
    ts: 1000 + seq,
    type: "frame",
    conn: 1,
    dir: "agent->client",
    raw: `{"jsonrpc":"2.0","method":"session/update","params":{"n":${seq}}}`,
  }) as const;

async function until(check: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!check()) await new Promise((r) => setTimeout(r, 20));
    })(),
    15_000,
    what,
  );
}

describe("a hub copy with missing records", { timeout: 60_000 }, () => {
  it("holds a gap note (which seqs, how many, why) and analyze warns about the skipped seqs", async () => {
    const tracesDir = scratch.path("traces");
    const hub = await startHub(scratch, tracesDir);
    link = createHubLink({
      header: {
        format: "acp-retry-inspector-trace",
        version: 1,
        tool: "gap test",
        startedAt: new Date().toISOString(),
      },
      rendezvousPath: rendezvousPath(scratch.env),
      maxBacklog: 50,
      retryMinMs: 20,
      retryMaxMs: 100,
    });
    const l = link;
    await until(() => l.stats().attached, "the link to attach to the hub");
    for (let seq = 1; seq <= 10; seq++) l.send(frame(seq));
    await until(() => l.stats().acked === 10, "the first 10 records to be acknowledged");
    // a burst the backlog cannot hold: the oldest 450 (seqs 11-460) are dropped before the next batch
    for (let seq = 11; seq <= 510; seq++) l.send(frame(seq));
    expect(l.stats().dropped).toBe(450);
    await until(() => l.stats().acked === 60, "the last 50 records to be acknowledged");
    await l.close(200);
    hub.child.kill("SIGTERM");
    await new Promise((r) => hub.child.once("exit", r));

    const [name] = readdirSync(tracesDir).filter((n) => n.endsWith(".jsonl"));
    const lines = readFileSync(join(tracesDir, name as string), "utf8")
      .trimEnd()
      .split("\n")
      .slice(1);
    const records = lines.map(
      (line) => JSON.parse(line) as { seq: number; type: string; gap?: unknown; text?: string },
    );
    expect(records.map((r) => r.seq)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => i + 1),
      460,
      ...Array.from({ length: 50 }, (_, i) => i + 461),
    ]);
    const note = records[10];
    expect(note).toMatchObject({
      type: "note",
      level: "warn",
      gap: { from: 11, to: 460, missing: 450, reason: "tap-dropped" },
    });
    expect(note?.text).toContain("450 record(s) missing, seqs 11-460");
    expect(note?.text).toContain("dropped");

    const file = join(tracesDir, name as string);
    const text = await run(process.execPath, [cliPath(), "analyze", file], { env: scratch.env });
    expect(text.stdout).toContain(
      "warning: 450 record(s) missing from this trace (its seqs skip them): seq 11-460 (450; the hub copy's note at seq 460: the tap's hub link dropped them)",
    );
    const json = JSON.parse(
      (await run(process.execPath, [cliPath(), "analyze", "--json", file], { env: scratch.env })).stdout,
    );
    expect(json.seqGaps).toMatchObject({ gaps: 1, missing: 450 });
    expect(json.warnings[0]).toMatch(/^warning: 450 record\(s\) missing/);
  });

  it("says why for the holes among the state records a late hub gets first (records skipped while detached)", async () => {
    // a proxy's link keeps nothing while no hub is attached; the hub starts later
    link = createHubLink({
      header: {
        format: "acp-retry-inspector-trace",
        version: 1,
        tool: "gap test",
        startedAt: new Date().toISOString(),
      },
      rendezvousPath: rendezvousPath(scratch.env),
      holdWhileDetached: false,
      retryMinMs: 20,
      retryMaxMs: 100,
    });
    const l = link;
    l.send({ seq: 1, ts: 1001, type: "conn-open", conn: 1, transport: "stdio" } as never);
    for (let seq = 2; seq <= 20; seq++) l.send(frame(seq));
    l.send({ seq: 21, ts: 1021, type: "agent-spawn", pid: 4242, command: ["agent"] } as never);
    for (let seq = 22; seq <= 30; seq++) l.send(frame(seq));
    const tracesDir = scratch.path("traces");
    const hub = await startHub(scratch, tracesDir);
    await until(() => l.stats().attached, "the link to attach to the late hub");
    for (let seq = 31; seq <= 35; seq++) l.send(frame(seq));
    await until(() => l.stats().acked === 5, "the records after the attach to be acknowledged");
    await l.close(200);
    hub.child.kill("SIGTERM");
    await new Promise((r) => hub.child.once("exit", r));

    const [name] = readdirSync(tracesDir).filter((n) => n.endsWith(".jsonl"));
    const records = readFileSync(join(tracesDir, name as string), "utf8")
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line) as { seq: number; type: string; gap?: { reason: string } });
    expect(records.map((r) => `${r.seq} ${r.gap ? `gap ${r.gap.reason}` : r.type}`)).toEqual([
      "1 conn-open",
      "20 gap tap-dropped",
      "21 agent-spawn",
      "30 gap tap-dropped",
      ...Array.from({ length: 5 }, (_, i) => `${i + 31} frame`),
    ]);
    expect(records[1]?.gap).toMatchObject({ from: 2, to: 20, missing: 19 });
    expect(records[3]?.gap).toMatchObject({ from: 22, to: 30, missing: 9 });
  });
});
