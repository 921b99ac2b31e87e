/**
 * Issue 12, "held, must stay held": path traversal. 15 spellings of a path out of the hub's traces
 * folder (encoded, double-encoded, backslashes, NUL, overlong UTF-8, absolute), against every route
 * that names a file (readTrace, readFrame) and the static files, over a raw socket so no client
 * normalises the path first. A planted file next to the traces folder must never be served.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHub, startHub } from "./hub-server.js";

const VARIANTS = [
  "..%2F..%2Fsecret",
  "..%2Fsecret",
  "%2e%2e%2fsecret",
  "%2E%2E%2F%2E%2E%2Fsecret",
  "..%5C..%5Csecret",
  "%252e%252e%252fsecret",
  "..%c0%afsecret",
  "..%ef%bc%8fsecret",
  "....%2F%2Fsecret",
  "%2Fetc%2Fpasswd",
  "secret%00",
  "..",
  ".",
  "..%00%2Fsecret",
  "%2e%2e",
];
const SECRET = "PLANTED-SECRET-7f3a";

let dir: string;
let hub: RunningHub;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-traversal-"));
  writeFileSync(join(dir, "secret.jsonl"), `${SECRET}\n`);
  writeFileSync(join(dir, "secret"), `${SECRET}\n`);
  mkdirSync(join(dir, "ui"));
  writeFileSync(join(dir, "ui", "index.html"), "<!doctype html><title>ui</title>");
  hub = await startHub({ tracesDir: join(dir, "traces"), staticDir: join(dir, "ui") });
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One GET with the path exactly as given, over a raw socket; resolves with the status and body. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: "127.0.0.1", port: hub.port });
    let text = "";
    s.on("data", (d) => {
      text += d.toString("latin1");
    });
    s.on("error", reject);
    s.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), body: text }));
    s.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nAuthorization: Bearer ${hub.token}\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe("path traversal (15 variants) on every route that names a file", () => {
  it.each(VARIANTS)("%s", async (v) => {
    for (const path of [`/api/traces/${v}`, `/api/traces/${v}/frames/1`, `/${v}`, `/assets/${v}`]) {
      const r = await rawGet(path);
      expect(r.body, path).not.toContain(SECRET);
      // a static path that resolves inside the UI folder may serve the UI's own page, nothing else
      if (r.status === 200 && !path.startsWith("/api/")) expect(r.body).toContain("<title>ui</title>");
      else expect([400, 403, 404], `${path} answered ${r.status}`).toContain(r.status);
    }
  });
});
