import { mkdtempSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { HUB_SUBPROTOCOL, socketProtocols } from "../../shared/hub/hub-auth.js";
import { OPERATION_NAMES, OPERATIONS } from "../../shared/ops/operations.js";
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
  method = "GET",
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: hub.port, path, method, headers, setHost: false, timeout: 5_000 },
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
    req.end(body);
  });
}

/** Attempts a WebSocket upgrade; resolves with the HTTP status (101 when it opened). */
function upgrade(
  path: string,
  headers: Record<string, string>,
  origin?: string,
  protocols: string[] = [],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}${path}`, protocols, {
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

/** Sends a raw upgrade request and resolves with every byte of the hub's answer up to the end of its headers. */
function rawUpgrade(path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: "127.0.0.1", port: hub.port });
    let got = "";
    s.setTimeout(5_000, () => s.destroy(new Error(`timeout; got ${JSON.stringify(got)}`)));
    s.on("connect", () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${hub.port}`,
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      s.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    s.on("data", (d) => {
      got += d.toString("latin1");
      const end = got.indexOf("\r\n\r\n");
      if (end === -1) return;
      s.destroy();
      resolve(got.slice(0, end));
    });
    s.on("error", reject);
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
    expect((await get("/api/faults", { Host: host() })).status).toBe(401);
    expect((await get("/api", { Host: host() })).status).toBe(401);
    expect((await get("/api/nothing-here", { Host: host() })).status).toBe(401);
    expect((await get("/x/../api/hub", { Host: host() })).status).toBe(401);
  });

  it("guards every route of the operation table: token, query token, cookie, Host and Origin", async () => {
    const cookie = `acp-ri-token-${hub.port}=${hub.token}`;
    for (const op of OPERATION_NAMES) {
      const { method, path: pattern } = OPERATIONS[op].http;
      const path = pattern.replace(/:[a-z]+/gi, "nothing-here");
      const body = method === "POST" ? "{}" : undefined;
      const json: Record<string, string> = body === undefined ? {} : { "Content-Type": "application/json" };
      const status = async (headers: Record<string, string>, p = path) =>
        (await get(p, { ...json, ...headers }, method, body)).status;
      const outcome = {
        op,
        none: await status({ Host: host() }),
        wrong: await status({ Host: host(), Authorization: `Bearer ${hub.token}x` }),
        cookie: await status({ Host: host(), Cookie: cookie }),
        query: await status({ Host: host() }, `${path}?token=${hub.token}`),
        host: await status({ ...bearer(), Host: `evil.example:${hub.port}` }),
        origin: await status({ ...bearer(), Origin: `http://127.0.0.1:${hub.port + 1}` }),
      };
      expect(outcome).toEqual({ op, none: 401, wrong: 401, cookie: 401, query: 400, host: 403, origin: 403 });
      // With the token the guard lets it through (the handler may still refuse the dummy arguments).
      expect([401, 403]).not.toContain(await status(bearer()));
    }
  });

  it("serves the UI's static files without the token (they carry no data), Host and Origin still checked", async () => {
    const page = await get("/", { Host: host() });
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect((await get("/", { Host: `evil.example:${hub.port}` })).status).toBe(403);
    expect((await get("/", { Host: host(), Origin: "http://evil.example" })).status).toBe(403);
    expect((await get("/nothing-here.js", { Host: host() })).status).toBe(404);
  });

  it("refuses a token in the query string on HTTP, even a valid one, even beside a valid header", async () => {
    for (const path of [`/api/hub?token=${hub.token}`, `/?token=${hub.token}`, `/index.html?token=x`]) {
      const r = await get(path, { Host: host() });
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      expect(r.body).toContain("#token=");
      expect(r.body).not.toContain(hub.token);
    }
    expect((await get(`/api/hub?token=${hub.token}`, bearer())).status).toBe(400);
  });

  it("refuses a token in the query string on upgrades, even a valid one", async () => {
    expect(await upgrade(`/ws/ui?token=${hub.token}`, {})).toBe(400);
    expect(await upgrade(`/ws/tap?token=${hub.token}`, {})).toBe(400);
    expect(await upgrade(`/ws/ui?token=${hub.token}`, { Authorization: `Bearer ${hub.token}` })).toBe(400);
  });

  it("never sets a cookie and never reads one", async () => {
    const cookie = `acp-ri-token-${hub.port}=${hub.token}`;
    for (const [path, headers] of [
      ["/", { Host: host() }],
      [`/?token=${hub.token}`, { Host: host() }],
      ["/api/hub", bearer()],
      ["/api/hub", { Host: host() }],
    ] as const) {
      const r = await get(path, headers);
      expect({ path, cookie: r.headers["set-cookie"] }).toEqual({ path, cookie: undefined });
    }
    expect((await get("/api/hub", { Host: host(), Cookie: cookie })).status).toBe(401);
    expect((await get("/api/faults", { Host: host(), Cookie: cookie })).status).toBe(401);
    expect(await upgrade("/ws/ui", { Cookie: cookie })).toBe(401);
  });

  it("takes the token as a WebSocket subprotocol and answers with acp-ri.v1, never echoing the token", async () => {
    // The token first: ws, left alone, would answer with the first protocol offered.
    const answer = await rawUpgrade("/ws/ui", {
      "Sec-WebSocket-Protocol": `acp-ri.token.${hub.token}, ${HUB_SUBPROTOCOL}`,
      Origin: `http://127.0.0.1:${hub.port}`,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    expect(answer.toLowerCase()).toContain(`sec-websocket-protocol: ${HUB_SUBPROTOCOL}`);
    expect(answer).not.toContain(hub.token);
    expect(answer.toLowerCase()).not.toContain("set-cookie");

    // What a browser does: both protocols, the fixed one chosen, and the feed works on it.
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}/ws/ui`, socketProtocols(hub.token), {
      origin: `http://127.0.0.1:${hub.port}`,
    });
    const hello = await new Promise<string>((resolve, reject) => {
      ws.once("message", (data) => resolve(data.toString()));
      ws.once("error", reject);
    });
    expect(ws.protocol).toBe(HUB_SUBPROTOCOL);
    expect(JSON.parse(hello)).toMatchObject({ t: "hello", hubId: hub.hubId });
    ws.close();

    expect(await upgrade("/ws/ui", {}, undefined, socketProtocols(`${hub.token}x`))).toBe(401);
    expect(await upgrade("/ws/tap", {}, undefined, socketProtocols(hub.token))).toBe(101);
    expect(await upgrade("/ws/ui", {}, "http://evil.example", socketProtocols(hub.token))).toBe(403);
    // A subprotocol is a WebSocket thing: plain HTTP takes the token only as Authorization.
    const http = await get("/api/hub", {
      Host: host(),
      "Sec-WebSocket-Protocol": `acp-ri.token.${hub.token}`,
    });
    expect(http.status).toBe(401);
  });

  it("rejects a WebSocket upgrade without a token or with a wrong one", async () => {
    expect(await upgrade("/ws/ui", {})).toBe(401);
    expect(await upgrade("/ws/tap", { Authorization: "Bearer wrong" })).toBe(401);
    expect(await upgrade("/ws/ui", {}, undefined, socketProtocols(hub.token.slice(1)))).toBe(401);
    expect(await upgrade("/ws/ui", { Authorization: `Bearer ${hub.token}` })).toBe(101);
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
    const auth = { Authorization: `Bearer ${hub.token}` };
    expect(await upgrade("/ws/ui", auth, "http://evil.example")).toBe(403);
    expect(await upgrade("/ws/ui", auth, `http://127.0.0.1:${hub.port + 1}`)).toBe(403);
    expect(await upgrade("/ws/ui", auth, `http://127.0.0.1:${hub.port}`)).toBe(101);
    expect((await get("/api/hub", { ...bearer(), Origin: `http://127.0.0.1:${hub.port}` })).status).toBe(200);
  });

  it("puts the token of its UI link in the fragment only, which no browser sends to a server", () => {
    expect(hub.url).toBe(`http://127.0.0.1:${hub.port}/#token=${hub.token}`);
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
    expect(r.kind === "live" && r.hub.url).toBe(`http://127.0.0.1:${hub.port}/#token=${hub.token}`);
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
