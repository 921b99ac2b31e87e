import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DemoAgent } from "./demo-agent.js";
import { encodeRecordLine } from "./session-file.js";
import { SessionStore } from "./session-store.js";

function freshStore(): string {
  return mkdtempSync(join(tmpdir(), "acp-store-"));
}

/**
 * A second process that, like another agent process sharing the store (or the conformance
 * suite's `cut-loses-session` wrapper), creates session files and deletes them again, `rounds`
 * times; resolves when it has finished.
 */
function churn(storeDir: string, rounds: number): Promise<number | null> {
  const script = `
    const { writeFileSync, rmSync } = require("node:fs");
    const { join } = require("node:path");
    const { randomUUID } = require("node:crypto");
    const { crc32 } = require("node:zlib");
    const [dir, rounds, user] = process.argv.slice(1);
    // The session-file line format (session-file.ts).
    const line = (rec) => {
      const text = JSON.stringify(rec);
      return '{"rec":' + text + ',"crc":"' + crc32(text).toString(16).padStart(8, "0") + '"}\\n';
    };
    // Long files: reading one takes a while, as a long real session's does.
    const body = user.repeat(2000);
    for (let i = 0; i < Number(rounds); i++) {
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const id of ids) writeFileSync(join(dir, id + ".jsonl"), line({ t: "session", sessionId: id, cwd: "/w", createdAt: "2026-01-01T00:00:00.000Z" }) + body);
      // Each file lives a few ms, as a session does between its turn and its agent's exit.
      const until = Date.now() + 1 + Math.random() * 8;
      while (Date.now() < until) {}
      for (const id of ids) rmSync(join(dir, id + ".jsonl"), { force: true });
    }
  `;
  const user = encodeRecordLine({
    t: "user",
    messageId: "m",
    content: [{ type: "text", text: "x" }],
    at: "t",
  });
  const child = spawn(process.execPath, ["-e", script, join(storeDir, "sessions"), String(rounds), user], {
    stdio: "ignore",
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

describe("a store shared by several agent processes", () => {
  test("session/list never fails while another process deletes session files", async () => {
    const storeDir = freshStore();
    const agent = new DemoAgent({ storeDir, mode: "forgetful", turnMs: 10 });
    const mine = agent.newSession("/w").id;
    let done = false;
    const other = churn(storeDir, 80).then((code) => {
      done = true;
      return code;
    });
    let lists = 0;
    let seen = 0;
    const errors: string[] = [];
    while (!done) {
      try {
        const listed = await agent.list("/w");
        expect(listed.map((s) => s.sessionId)).toContain(mine);
        seen += listed.length - 1;
      } catch (err) {
        errors.push(String(err));
      }
      lists++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await other).toBe(0);
    // The other process's sessions were listed while they lived: the race was really run.
    expect(lists).toBeGreaterThan(0);
    expect(seen).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  test("a peek leaves a tail that looks torn alone (it may be another process's append); a read for appending cuts it", () => {
    const storeDir = freshStore();
    const header = {
      t: "session" as const,
      sessionId: crypto.randomUUID(),
      cwd: "/w",
      createdAt: new Date(0).toISOString(),
    };
    new SessionStore(storeDir).create(header);
    // Another process's store object: it has not opened the session for appending.
    const store = new SessionStore(storeDir);
    const path = store.pathOf(header.sessionId);
    const user = encodeRecordLine({
      t: "user",
      messageId: "m-1",
      content: [{ type: "text", text: "hi" }],
      at: "x",
    });
    appendFileSync(path, user.slice(0, 20));
    const before = readFileSync(path, "utf8");

    const peeked = store.peek(header.sessionId);
    expect(peeked?.records).toHaveLength(1);
    expect(peeked?.repaired).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(() =>
      store.append(header.sessionId, { t: "user", messageId: "m-2", content: [], at: "y" }),
    ).toThrow(/was not opened/);

    const read = store.read(header.sessionId);
    expect(read?.repaired).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(encodeRecordLine(header));
  });

  test("a session deleted before it is read is not found, not an error", () => {
    const store = new SessionStore(freshStore());
    expect(store.read(crypto.randomUUID())).toBeUndefined();
    expect(store.peek(crypto.randomUUID())).toBeUndefined();
  });
});
