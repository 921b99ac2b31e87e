/**
 * Who the remote front lets in, as a real `proxy --listen` process with real agents: a bearer
 * token by default (printed once, written 0600 next to the trace), `--no-auth` only when asked,
 * and at most `--max-agents` agent processes at a time.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import type { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { FRONT_TOKEN_ENV } from "../../platform/front-token.js";
import { readReadyLine } from "../ready-line.js";
import { exited, Scratch, startFront, stopFront } from "../testing/peers.js";
import { scriptedAgent, traceRecords, within } from "../testing/proxy-run.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}}';

/** One HTTP request to the front; resolves with status, headers and body. */
function http(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathname, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Opens a WebSocket and says how it went: `open` (and echoed a line back), `refused` (closed with a code and reason) or `rejected` (an HTTP status instead of the upgrade). */
function dial(
  url: string,
  headers: Record<string, string>,
): Promise<
  | { kind: "open"; ws: WebSocket }
  | { kind: "refused"; code: number; reason: string }
  | { kind: "rejected"; status: number }
> {
  const ws = new WebSocket(url, { headers });
  return within(
    new Promise((resolve) => {
      ws.on("unexpected-response", (_req, res) => {
        resolve({ kind: "rejected", status: res.statusCode ?? 0 });
        ws.terminate();
      });
      ws.on("error", () => {});
      ws.on("open", () => ws.send('{"jsonrpc":"2.0","method":"ping"}'));
      ws.on("message", () => resolve({ kind: "open", ws }));
      ws.on("close", (code, reason) => resolve({ kind: "refused", code, reason: reason.toString() }));
    }),
    20_000,
    "the WebSocket to open or be refused",
  );
}

describe("proxy --listen: the bearer token", { timeout: 90_000 }, () => {
  it("is required by default: printed once, written 0600 next to the trace, refused without it (401), removed at stop", async () => {
    const trace = scratch.path("auth.jsonl");
    const front = await startFront(scratch, ["--no-hub", "--trace", trace], scriptedAgent("echo"));
    expect(front.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(front.stderr().split(front.token)).toHaveLength(2);
    expect(front.stderr()).toContain(
      `acp-retry-inspector: token: ${front.token} (clients send "Authorization: Bearer <token>"; also in ${front.tokenFile}, mode 0600, removed when the front stops)`,
    );
    expect(readFileSync(front.tokenFile, "utf8")).toBe(`${front.token}\n`);
    expect(statSync(front.tokenFile).mode & 0o777).toBe(0o600);

    // HTTP: no token, a wrong one, the right one
    const json = { "Content-Type": "application/json" };
    const none = await http(front.httpUrl, "POST", json, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    expect(none.body).toContain("send Authorization: Bearer <token>");
    expect(
      (await http(front.httpUrl, "POST", { ...json, Authorization: "Bearer nope" }, INITIALIZE)).status,
    ).toBe(401);
    expect(
      (await http(front.httpUrl, "POST", { ...json, Authorization: front.token }, INITIALIZE)).status,
    ).toBe(401);
    const wrongScheme = { ...json, Authorization: `Basic ${front.token}` };
    expect((await http(front.httpUrl, "POST", wrongScheme, INITIALIZE)).status).toBe(401);
    // every request, not only the first: a known connection id is not a credential
    for (const method of ["GET", "DELETE"])
      expect(
        (await http(front.httpUrl, method, { "Acp-Connection-Id": "x", Accept: "text/event-stream" })).status,
      ).toBe(401);

    // WebSocket: refused at the upgrade without the token, served with it
    expect(await dial(front.wsUrl, {})).toEqual({ kind: "rejected", status: 401 });
    expect(await dial(front.wsUrl, { Authorization: "Bearer wrong" })).toEqual({
      kind: "rejected",
      status: 401,
    });
    const served = await dial(front.wsUrl, front.headers);
    expect(served.kind).toBe("open");
    if (served.kind === "open") served.ws.close();

    await stopFront(front.child);
    expect(existsSync(front.tokenFile)).toBe(false);
    // only the one authorized connection reached an agent
    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "agent-spawn")).toHaveLength(1);
    expect(records.filter((r) => r.type === "conn-open")).toHaveLength(1);
  });

  it(`takes its token from ${FRONT_TOKEN_ENV} (neither printed nor written) and never hands it to the agent`, async () => {
    const token = "a-token-given-by-the-parent-process";
    scratch.env[FRONT_TOKEN_ENV] = token;
    const trace = scratch.path("env.jsonl");
    const agent = [
      process.execPath,
      "-e",
      `process.stderr.write("agent env token: " + (process.env.${FRONT_TOKEN_ENV} ?? "none") + "\\n"); process.stdin.pipe(process.stdout);`,
    ];
    const child = scratch.spawnCli([
      "proxy",
      "--listen",
      "ws://127.0.0.1:0",
      "--ready-json",
      "--no-hub",
      "--trace",
      trace,
      "--",
      ...agent,
    ]);
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const ready = await within(readReadyLine(child.stdout as Readable), 15_000, "the front's ready line");
    const url = ready.address?.ws as string;
    expect(stderr).toContain(`token: from ${FRONT_TOKEN_ENV}`);
    expect(stderr).not.toContain(token);
    expect(existsSync(`${trace}.token`)).toBe(false);
    expect(ready.tokenFile).toBe(null);
    expect((await dial(url, {})).kind).toBe("rejected");
    const served = await dial(url, { Authorization: `Bearer ${token}` });
    expect(served.kind).toBe("open");
    if (served.kind === "open") served.ws.close();
    await stopFront(child);
    const lines = (await traceRecords(trace)).flatMap((r) => (r.type === "agent-stderr" ? [r.text] : []));
    expect(lines).toEqual(["agent env token: none"]);
  });

  it("--no-auth takes connections without a token, and warns", async () => {
    const trace = scratch.path("no-auth.jsonl");
    const front = await startFront(
      scratch,
      ["--no-hub", "--no-auth", "--trace", trace],
      scriptedAgent("echo"),
    );
    const served = await dial(front.wsUrl, {});
    expect(served.kind).toBe("open");
    if (served.kind === "open") served.ws.close();
    expect(existsSync(`${trace}.token`)).toBe(false);
    expect(front.stderr()).toContain(
      "acp-retry-inspector: --no-auth: this front takes connections without a token; any local process can connect and start agents (at most 8 at a time)",
    );
    expect(front.stderr()).not.toContain("token: ");
    await stopFront(front.child);
  });
});

describe("proxy --listen: --max-agents", { timeout: 120_000 }, () => {
  it("caps agent processes (default 8): 40 WebSocket connections start 8 agents, the rest are told why", async () => {
    const trace = scratch.path("forty.jsonl");
    const front = await startFront(scratch, ["--no-hub", "--trace", trace], scriptedAgent("echo"));
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => dial(front.wsUrl, front.headers)));
    const open = outcomes.filter((o) => o.kind === "open");
    const refused = outcomes.filter((o) => o.kind === "refused");
    expect(open).toHaveLength(8);
    expect(refused).toHaveLength(32);
    for (const r of refused)
      expect(r).toEqual({
        kind: "refused",
        code: 1013,
        reason:
          "too many connections: 8 agent(s) running, the most this front serves (--max-agents 8); try again later",
      });
    for (const o of open) if (o.kind === "open") o.ws.close();
    await stopFront(front.child);
    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "agent-spawn")).toHaveLength(8);
    expect(
      records.filter((r) => r.type === "note" && r.text.startsWith("refused a connection from 127.0.0.1:")),
    ).toHaveLength(32);
  });

  it("--max-agents N: an HTTP initialize over the cap gets 503 with the reason; a slot frees when an agent exits", async () => {
    const trace = scratch.path("two.jsonl");
    const front = await startFront(
      scratch,
      ["--no-hub", "--max-agents", "2", "--trace", trace],
      scriptedAgent("echo"),
    );
    const first = await dial(front.wsUrl, front.headers);
    const second = await dial(front.wsUrl, front.headers);
    expect([first.kind, second.kind]).toEqual(["open", "open"]);
    expect(await dial(front.wsUrl, front.headers)).toMatchObject({ kind: "refused", code: 1013 });
    const busy = await http(
      front.httpUrl,
      "POST",
      { "Content-Type": "application/json", ...front.headers },
      INITIALIZE,
    );
    expect(busy.status).toBe(503);
    expect(busy.headers["retry-after"]).toBe("1");
    expect(busy.body).toBe(
      "too many connections: 2 agent(s) running, the most this front serves (--max-agents 2); try again later",
    );
    // One client leaves: its agent exits and a new connection is served again.
    if (first.kind === "open") first.ws.close();
    let again = await dial(front.wsUrl, front.headers);
    for (let i = 0; again.kind !== "open" && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await dial(front.wsUrl, front.headers);
    }
    expect(again.kind).toBe("open");
    for (const o of [second, again]) if (o.kind === "open") o.ws.close();
    await stopFront(front.child);
    await exited(front.child);
    const spawns = (await traceRecords(trace)).filter((r) => r.type === "agent-spawn");
    expect(spawns).toHaveLength(3);
  });

  it("rejects a bad --max-agents and the front-only options without --listen", async () => {
    const run = (args: string[]) => {
      const child = scratch.spawnCli(["proxy", ...args, "--", process.execPath, "-e", ""]);
      let stderr = "";
      child.stderr?.on("data", (c: Buffer) => {
        stderr += c.toString("utf8");
      });
      return exited(child).then(({ code }) => ({ code, stderr }));
    };
    expect(await run(["--listen", "ws://127.0.0.1:0", "--max-agents", "0"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--max-agents expects an integer >= 1, got 0"),
    });
    expect(await run(["--max-agents", "3"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--max-agents needs --listen"),
    });
    expect(await run(["--no-auth"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--no-auth needs --listen"),
    });
  });
});
