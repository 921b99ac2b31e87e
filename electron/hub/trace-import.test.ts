/**
 * The hub's import path in pieces: the body is decoded chunk by chunk and the text written to the
 * store in 1 MiB pieces (never a second whole copy). What goes in comes back byte for byte, a
 * surrogate pair on every piece boundary and a line longer than many pieces included.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { type RunningHub, startHub } from "./hub-server.js";

let dir: string;
let hub: RunningHub | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-import-"));
});
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("importTrace over HTTP", () => {
  it("stores a multi-megabyte trace byte for byte: pairs across piece boundaries, a 3 MB line", async () => {
    hub = await startHub({ tracesDir: join(dir, "traces") });
    const header = {
      format: TRACE_FORMAT,
      version: 1,
      tool: "t",
      startedAt: "2026-02-03T04:05:06.789Z",
    } as const;
    const frame = (seq: number, text: string) =>
      encodeRecord({
        seq,
        ts: seq,
        type: "frame",
        conn: 1,
        dir: "agent->client",
        raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { text } }),
      });
    // the first emoji's high surrogate is the last character of the first 1 MiB piece
    const at = (encodeHeader(header) + frame(1, "😀")).indexOf("😀");
    const lines = [encodeHeader(header), frame(1, `${"a".repeat(2 ** 20 - 1 - at)}😀`)];
    for (let seq = 2; seq <= 40; seq++) lines.push(frame(seq, `${"a".repeat(seq * 997)}😀`.repeat(40)));
    lines.push(frame(41, "😀€x".repeat(750_000))); // a line of about 3 MB: many pieces
    lines.push(frame(42, "end"));
    const body = lines.join("");
    const auth = { Authorization: `Bearer ${hub.token}` };
    const r = await fetch(`http://127.0.0.1:${hub.port}/api/traces`, { method: "POST", headers: auth, body });
    expect(r.status).toBe(201);
    const answer = (await r.json()) as { id: string; records: number; flagged: number };
    expect(answer).toMatchObject({ records: 42, flagged: 0 });
    expect(readFileSync(join(hub.tracesDir, `${answer.id}.jsonl`), "utf8")).toBe(body);
  });

  it("refuses a body whose Content-Length is over the limit before reading it (413, nothing held)", async () => {
    hub = await startHub({ tracesDir: join(dir, "traces"), importLimitBytes: 1 << 20 });
    const { port, token } = hub;
    // the request says 10 MB but sends 1 KB and waits: only a refusal from the headers answers it
    const status = await new Promise<number | string>((resolve) => {
      const req = request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/traces",
        headers: { Authorization: `Bearer ${token}`, "Content-Length": String(10 << 20) },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", (e) => resolve(`error ${e.message}`));
      req.write("x".repeat(1024));
      setTimeout(() => {
        resolve("no answer in 5 s");
        req.destroy();
      }, 5_000).unref();
    });
    expect(status).toBe(413);
  });
});
