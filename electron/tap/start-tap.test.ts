/**
 * `startTap` in this process (stdio on in-memory streams, and a `listen` front reached by the real
 * demo-client), and the ready line of a child tap (`proxy --ready-json`, `--ready-fd`): every agent
 * is a real demo-agent process, every connection a real loopback socket.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { cliPath } from "../tools/testing/cli.js";
import { parseReadyLine, readReadyLine } from "./ready-line.js";
import { type RunningTap, startTap, TapOptionError } from "./start-tap.js";
import { demoAgent, demoClient, exited, Scratch, startHub } from "./testing/peers.js";
import { within } from "./testing/proxy-run.js";

let scratch: Scratch;
const running: RunningTap[] = [];
afterEach(async () => {
  for (const tap of running.splice(0)) await tap.stop();
  scratch?.cleanup();
});

/** The records of a trace file (after its header line). */
function records(file: string): { type: string; conn?: number; dir?: string; raw?: string; text?: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .slice(1)
    .map((l) => JSON.parse(l));
}

/** The first line written to `out`. */
function firstLine(out: Readable): Promise<string> {
  let text = "";
  return new Promise((resolve) =>
    out.on("data", (c: Buffer) => {
      text += c.toString("utf8");
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
    }),
  );
}

describe("startTap", () => {
  it("stdio: forwards a client's request to a real agent and its answer back, recording both, and ends with the agent", async () => {
    scratch = new Scratch();
    const trace = scratch.path("stdio.jsonl");
    const clientIn = new PassThrough();
    const clientOut = new PassThrough();
    const said: string[] = [];
    const tap = await startTap({
      command: demoAgent(scratch),
      trace,
      noHub: true,
      clientIn,
      clientOut,
      errOut: new PassThrough(),
      say: (m) => said.push(m),
    });
    expect(tap).toMatchObject({ address: null, tokenFile: null, trace, traceId: null, pid: process.pid });
    const answer = firstLine(clientOut);
    const request = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}';
    clientIn.write(`${request}\n`);
    const reply = JSON.parse(await within(answer, 15_000, "the agent's answer")) as { id: number };
    expect(reply.id).toBe(1);
    clientIn.end();
    const end = await within(tap.done, 15_000, "the tap to end");
    expect(end).toEqual({ kind: "exited", code: 0, signal: null });
    const frames = records(trace).filter((r) => r.type === "frame");
    expect(frames.map((f) => [f.conn, f.dir])).toEqual([
      [1, "client->agent"],
      [1, "agent->client"],
    ]);
    expect(frames[0]?.raw).toBe(request);
    expect(said).toEqual([]);
  });

  it("listen: serves the real demo-client with a generated token in a 0600 file, and stop() ends it, completes the trace and removes the file", async () => {
    scratch = new Scratch();
    const trace = scratch.path("front.jsonl");
    const said: string[] = [];
    const tap = await startTap({
      command: demoAgent(scratch),
      trace,
      noHub: true,
      listen: "ws://127.0.0.1:0",
      errOut: new PassThrough(),
      say: (m) => said.push(m),
    });
    running.push(tap);
    expect(tap.address?.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    expect(tap.address?.http).toBe(tap.address?.ws.replace(/^ws:/, "http:"));
    expect(tap.tokenFile).toBe(`${trace}.token`);
    expect(statSync(tap.tokenFile as string).mode & 0o777).toBe(0o600);
    const report = await demoClient(scratch, [
      "--url",
      tap.address?.ws as string,
      "--token-file",
      `${trace}.token`,
    ]);
    expect(report.ok).toBe(true);
    expect(await tap.stop()).toEqual({ kind: "stopped" });
    expect(await tap.done).toEqual({ kind: "stopped" });
    expect(existsSync(`${trace}.token`)).toBe(false);
    const all = records(trace);
    expect(all.some((r) => r.type === "frame" && r.conn === 1 && r.dir === "client->agent")).toBe(true);
    expect(all.filter((r) => r.type === "note").map((r) => r.text)).toContain(
      "stopped; closing every connection",
    );
    expect(said.at(-1)).toBe(
      `listening ${tap.address?.ws} (WebSocket) and ${tap.address?.http} (Streamable HTTP)`,
    );
  });

  it("refuses a listen URL it cannot serve as an option error, before starting anything", async () => {
    scratch = new Scratch();
    const start = startTap({
      command: demoAgent(scratch),
      trace: scratch.path("never.jsonl"),
      noHub: true,
      listen: "ws://0.0.0.0:0",
      errOut: new PassThrough(),
      say: () => {},
    });
    await expect(start).rejects.toBeInstanceOf(TapOptionError);
    expect(existsSync(scratch.path("never.jsonl"))).toBe(false);
  });
});

describe("the ready line of a child tap", () => {
  it("proxy --listen --ready-json prints one JSON line on stdout with its address, token file, trace and pid", async () => {
    scratch = new Scratch();
    const trace = scratch.path("child.jsonl");
    const child = scratch.spawnCli([
      "proxy",
      "--listen",
      "ws://127.0.0.1:0",
      "--ready-json",
      "--no-hub",
      "--trace",
      trace,
      "--",
      ...demoAgent(scratch),
    ]);
    const ready = await within(readReadyLine(child.stdout as Readable), 15_000, "the ready line");
    expect(ready).toEqual({
      address: { ws: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/), http: expect.any(String) },
      tokenFile: `${trace}.token`,
      trace,
      traceId: null,
      pid: child.pid,
    });
    const report = await demoClient(scratch, [
      "--url",
      ready.address?.ws as string,
      "--token-file",
      `${trace}.token`,
    ]);
    expect(report.ok).toBe(true);
    child.kill("SIGTERM");
    expect(await within(exited(child), 15_000, "the tap to exit")).toEqual({ code: 0, signal: null });
  });

  it("names the hub's trace id when the tap attached to a running hub, the id `taps` lists", async () => {
    scratch = new Scratch();
    await startHub(scratch, scratch.path("hub-traces"));
    const child = scratch.spawnCli([
      "proxy",
      "--listen",
      "ws://127.0.0.1:0",
      "--ready-json",
      "--trace",
      scratch.path("hubbed.jsonl"),
      "--",
      ...demoAgent(scratch),
    ]);
    const ready = await within(readReadyLine(child.stdout as Readable), 15_000, "the ready line");
    expect(ready.traceId).toMatch(/./);
    const { stdout } = await promisify(execFile)(process.execPath, [cliPath(), "taps", "--json"], {
      env: scratch.env,
      timeout: 15_000,
    });
    const taps = JSON.parse(stdout) as { traceId: string; pid?: number }[];
    expect(taps.map((t) => t.traceId)).toContain(ready.traceId);
  });

  it("proxy --ready-fd N writes the line to descriptor N for a stdio tap (address null), then closes it", async () => {
    scratch = new Scratch();
    const trace = scratch.path("fd.jsonl");
    const child = spawn(
      process.execPath,
      [cliPath(), "proxy", "--ready-fd", "3", "--no-hub", "--trace", trace, "--", ...demoAgent(scratch)],
      { env: scratch.env, stdio: ["pipe", "pipe", "pipe", "pipe"] },
    );
    const fd = child.stdio[3] as Readable;
    let rest = "";
    fd.on("data", (c: Buffer) => {
      rest += c.toString("utf8");
    });
    const closed = new Promise<void>((resolve) => fd.once("end", () => resolve()));
    await within(closed, 15_000, "the ready descriptor to close");
    expect(rest.endsWith("\n")).toBe(true);
    expect(parseReadyLine(rest.trim())).toEqual({
      address: null,
      tokenFile: null,
      trace,
      traceId: null,
      pid: child.pid,
    });
    child.stdin.end();
    expect(await within(exited(child), 15_000, "the tap to exit")).toEqual({ code: 0, signal: null });
  });

  it("parseReadyLine names what is wrong with a line that is not a ready line", () => {
    expect(parseReadyLine("listening ws://127.0.0.1:1/acp")).toBe("not JSON");
    expect(parseReadyLine("[1]")).toBe("not a JSON object");
    expect(
      parseReadyLine('{"address":{"ws":1},"tokenFile":null,"trace":null,"traceId":null,"pid":1}'),
    ).toMatch(/address/);
    expect(parseReadyLine('{"address":null,"tokenFile":3,"trace":null,"traceId":null,"pid":1}')).toMatch(
      /tokenFile/,
    );
    expect(parseReadyLine('{"address":null,"tokenFile":null,"trace":null,"traceId":null,"pid":"1"}')).toMatch(
      /pid/,
    );
  });
});
