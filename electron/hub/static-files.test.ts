import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHub, startHub } from "./hub-server.js";
import { staticPath } from "./static-files.js";

let dir: string;
let hub: RunningHub;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-static-"));
  mkdirSync(join(dir, "ui", "assets"), { recursive: true });
  writeFileSync(join(dir, "ui", "index.html"), "<!doctype html><title>UI build</title>");
  writeFileSync(join(dir, "ui", "assets", "app.js"), "console.log(1)");
  writeFileSync(join(dir, "secret.txt"), "outside");
  hub = await startHub({ tracesDir: join(dir, "traces"), staticDir: join(dir, "ui") });
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) =>
  fetch(`http://127.0.0.1:${hub.port}${path}`, { headers: { Authorization: `Bearer ${hub.token}` } });

describe("UI static files", () => {
  it("serves the configured UI build with a strict CSP", async () => {
    const page = await get("/");
    expect(await page.text()).toContain("UI build");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const js = await get("/assets/app.js");
    expect(js.headers.get("content-type")).toContain("text/javascript");
  });

  it("lets its pages connect to this hub's own port only", async () => {
    const csp = (await get("/")).headers.get("content-security-policy") ?? "";
    const connect = csp.split("; ").find((d) => d.startsWith("connect-src "));
    expect(connect).toBe(`connect-src 'self' ws://127.0.0.1:${hub.port} ws://localhost:${hub.port}`);
    expect(csp).not.toContain("*");
    expect(csp).not.toMatch(/unsafe/);
  });

  it("serves the UI's files without the token, and nothing of the API", async () => {
    const anonymous = (path: string) => fetch(`http://127.0.0.1:${hub.port}${path}`);
    expect((await anonymous("/")).status).toBe(200);
    expect((await anonymous("/assets/app.js")).status).toBe(200);
    expect((await anonymous("/api/hub")).status).toBe(401);
    expect((await anonymous("/api/traces")).status).toBe(401);
  });

  it("never serves files outside the UI folder", async () => {
    expect((await get("/../secret.txt")).status).toBe(404);
    expect((await get("/%2e%2e/secret.txt")).status).toBe(404);
    expect((await get("/assets/..%2f..%2fsecret.txt")).status).toBe(404);
    expect(staticPath("/srv/ui", "/../../etc/passwd")).toBe("/srv/ui/etc/passwd");
    expect(staticPath("/srv/ui", "/a%00b")).toBeUndefined();
    expect(staticPath("/srv/ui", "/%E0%A4%A")).toBeUndefined();
  });
});
