import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CONNECT_RACE_MS, HubUnreachable, hubTransport, raceConnect } from "./hub-client.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A listener in its own process, with a listen queue of one; resolves with its port. */
async function listener(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "require('node:net').createServer(() => {}).listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { console.log(this.address().port) })",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  cleanups.push(() => {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout?.once("data", (d) => resolve(Number(String(d).trim()))),
  );
  return { child, port };
}

/** Connects to `port`; resolves true if connected within `ms`, false if not (the attempt is left pending). */
function connectsWithin(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: "127.0.0.1", port });
    cleanups.push(() => s.destroy());
    s.on("error", () => {});
    const timer = setTimeout(() => resolve(false), ms);
    s.once("connect", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe("raceConnect", () => {
  it("gets in with a later attempt when the listen queue was full at the first SYN", async () => {
    const { child, port } = await listener();
    // a stopped process accepts nothing: connections fill its queue until the kernel drops SYNs
    child.kill("SIGSTOP");
    let fillers = 0;
    while (await connectsWithin(port, 300)) if (++fillers > 20) throw new Error("the queue never filled");
    const raced = raceConnect(port, AbortSignal.timeout(10_000));
    // the process wakes and drains its queue after the first attempt's SYN was dropped; the kernel
    // would retry that SYN only after 1 s, so a later attempt connects first
    setTimeout(() => child.kill("SIGCONT"), CONNECT_RACE_MS * 1.5);
    const { socket, attempt } = await raced;
    cleanups.push(() => socket.destroy());
    expect(attempt).toBeGreaterThan(1);
  });

  it("fails at once, with the refusal, when nobody listens", async () => {
    const server = createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    await new Promise((r) => server.close(r));
    await expect(raceConnect(port, AbortSignal.timeout(10_000))).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
    const send = hubTransport({ base: `http://127.0.0.1:${port}`, token: "t" });
    const failure = await send({ method: "GET", path: "/api/hub" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HubUnreachable);
    expect(String(failure)).toMatch(/cannot reach the hub at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it("says the hub did not answer in time when it accepts but never answers", async () => {
    const { port } = await listener();
    const send = hubTransport({ base: `http://127.0.0.1:${port}`, token: "t" }, 300);
    await expect(send({ method: "GET", path: "/api/hub" })).rejects.toThrow(/no answer in 300 ms/);
  });
});
