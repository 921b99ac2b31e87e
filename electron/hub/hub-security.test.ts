import { mkdtempSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { readRendezvous } from "../hub-client/rendezvous.js";
import { type RunningHub, startHub } from "./hub-server.js";

let dir: string;
let hub: RunningHub;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-hubsec-"));
  hub = await startHub({ tracesDir: join(dir, "traces"), rendezvousPath: join(dir, "run", "hub.json") });
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One raw HTTP request with exactly the headers given (Host included). */
function get(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: hub.port, path, headers, setHost: false, timeout: 5_000 },
      (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/** Attempts a WebSocket upgrade; resolves with the HTTP status (101 when it opened). */
function upgrade(path: string, headers: Record<string, string>, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}${path}`, {
      headers,
      ...(origin && { origin }),
      handshakeTimeout: 5_000,
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on("open", () => {
      resolve(101);
      ws.close();
    });
    ws.on("error", (err) => reject(err));
  });
}

const host = () => `127.0.0.1:${hub.port}`;
const bearer = () => ({ Host: host(), Authorization: `Bearer ${hub.token}` });

describe("hub security", () => {
  it("serves a request with the token", async () => {
    const r = await get("/api/hub", bearer());
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).hubId).toBe(hub.hubId);
  });

  it("rejects HTTP without a token or with a wrong one", async () => {
    expect((await get("/api/hub", { Host: host() })).status).toBe(401);
    expect((await get("/api/hub", { Host: host(), Authorization: "Bearer nope" })).status).toBe(401);
    expect((await get(`/api/hub?token=${hub.token}x`, { Host: host() })).status).toBe(401);
    expect((await get("/", { Host: host() })).status).toBe(401);
  });

  it("rejects a WebSocket upgrade without a token or with a wrong one", async () => {
    expect(await upgrade("/ws/ui", {})).toBe(401);
    expect(await upgrade("/ws/tap", { Authorization: "Bearer wrong" })).toBe(401);
    expect(await upgrade(`/ws/ui?token=${hub.token.slice(1)}`, {})).toBe(401);
    expect(await upgrade(`/ws/ui?token=${hub.token}`, {})).toBe(101);
    expect(await upgrade("/ws/tap", { Authorization: `Bearer ${hub.token}` })).toBe(101);
  });

  it("rejects a Host that is not loopback (DNS rebinding), even with the token", async () => {
    const evil = { Host: `evil.example:${hub.port}`, Authorization: `Bearer ${hub.token}` };
    expect((await get("/api/hub", evil)).status).toBe(403);
    expect((await get("/api/hub", { ...evil, Host: "127.0.0.1:1" })).status).toBe(403);
    // no Host at all: Node's HTTP parser already answers 400
    expect([400, 403]).toContain((await get("/api/hub", { Authorization: `Bearer ${hub.token}` })).status);
    expect(await upgrade("/ws/ui", evil)).toBe(403);
    expect((await get("/api/hub", { ...evil, Host: `localhost:${hub.port}` })).status).toBe(200);
  });

  it("rejects a foreign Origin over HTTP and WebSocket, even with the token", async () => {
    expect((await get("/api/hub", { ...bearer(), Origin: "http://evil.example" })).status).toBe(403);
    expect((await get("/api/hub", { ...bearer(), Origin: `http://127.0.0.1:${hub.port + 1}` })).status).toBe(
      403,
    );
    expect((await get("/api/hub", { ...bearer(), Origin: "null" })).status).toBe(403);
    expect(await upgrade(`/ws/ui?token=${hub.token}`, {}, "http://evil.example")).toBe(403);
    expect(await upgrade(`/ws/ui?token=${hub.token}`, {}, `http://127.0.0.1:${hub.port}`)).toBe(101);
    expect((await get("/api/hub", { ...bearer(), Origin: `http://127.0.0.1:${hub.port}` })).status).toBe(200);
  });

  it("hands the browser page an HttpOnly cookie that then authenticates its assets", async () => {
    const page = await get(`/?token=${hub.token}`, { Host: host() });
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    const cookie = String(page.headers["set-cookie"]).split(";")[0] as string;
    expect(String(page.headers["set-cookie"])).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await get("/api/hub", { Host: host(), Cookie: cookie })).status).toBe(200);
    expect((await get("/api/hub", { Host: host(), Cookie: `${cookie}x` })).status).toBe(401);
  });

  it("listens on 127.0.0.1 only", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a?.address as string);
    for (const address of ["::1", ...others]) {
      const outcome = await new Promise<string>((resolve) => {
        const s = connect({ host: address, port: hub.port, timeout: 2_000 });
        s.on("connect", () => {
          s.destroy();
          resolve("connected");
        });
        s.on("timeout", () => {
          s.destroy();
          resolve("timeout");
        });
        s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
      });
      expect({ address, outcome }).not.toEqual({ address, outcome: "connected" });
    }
  });

  it("writes its rendezvous file with mode 0600 in a 0700 folder", () => {
    const path = join(dir, "run", "hub.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "run")).mode & 0o777).toBe(0o700);
    const r = readRendezvous(path);
    expect(r.kind === "live" && r.hub.port).toBe(hub.port);
    expect(r.kind === "live" && r.hub.url).toBe(`http://127.0.0.1:${hub.port}/?token=${hub.token}`);
  });

  it("refuses fault rules without a JSON content type (no simple cross-site form posts)", async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: hub.port,
          path: "/api/faults",
          method: "POST",
          headers: { ...bearer(), "Content-Type": "text/plain" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ action: "kill-agent" }));
    });
    expect(r).toBe(415);
  });
});
