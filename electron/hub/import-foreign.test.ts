/**
 * Issue 15 item 3, the hub's side: `importTrace` (HTTP, as the CLI and the Electron main process
 * call it) takes the four foreign formats the UI's Import and `analyze` take, detected from the
 * content and converted to our trace first; our own trace passes through unchanged.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodeHeader } from "../../shared/trace/codec.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { callOperation } from "../hub-client/hub-client.js";
import { type RunningHub, startHub } from "./hub-server.js";

const FIXTURES = join(import.meta.dirname, "../../e2e/fixtures/imports");
let dir: string;
let hub: RunningHub;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-import-foreign-"));
  hub = await startHub({ tracesDir: join(dir, "traces") });
});
afterEach(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Where the hub stored an imported trace. */
const stored = (id: string) => join(dir, "traces", `${id}.jsonl`);
const call = (op: "importTrace", args: Record<string, unknown>) =>
  callOperation({ base: `http://127.0.0.1:${hub.port}`, token: hub.token }, op, args as never);

describe("importTrace", () => {
  it.each([
    ["zed-copy-all.json", "zed-log"],
    ["sacp-trace.jsons", "sacp-trace"],
    ["acp-inspector.jsonl", "acp-inspector-jsonl"],
    ["chrome-websocket.har", "har"],
    ["streamable-http.har", "har"],
  ])("converts %s (%s) to our trace and stores that", async (file, format) => {
    const r = (await call("importTrace", { text: readFileSync(join(FIXTURES, file), "utf8") })) as {
      id: string;
      records: number;
      flagged: number;
      convertedFrom?: string;
    };
    expect(r.convertedFrom).toBe(format);
    expect(r.records).toBeGreaterThan(0);
    expect(r.flagged).toBe(0);
    const firstLine = readFileSync(stored(r.id), "utf8").split("\n", 1)[0] as string;
    const header = decodeHeader(firstLine);
    expect(header.kind).toBe("header");
    if (header.kind === "header") {
      expect(header.header.format).toBe(TRACE_FORMAT);
      expect(header.header.imported?.format).toBe(format);
    }
  });

  it("stores our own trace as it came, and refuses text that is no trace of any kind", async () => {
    const own = `${JSON.stringify({ type: "header", format: TRACE_FORMAT, version: 1, tool: "t", startedAt: "2026-01-01T00:00:00Z" })}\n${JSON.stringify({ seq: 1, ts: 1, type: "note", level: "info", text: "x" })}\n`;
    const r = (await call("importTrace", { text: own })) as { id: string; convertedFrom?: string };
    expect(r.convertedFrom).toBeUndefined();
    expect(readFileSync(stored(r.id), "utf8")).toBe(own);
    await expect(call("importTrace", { text: "just some words\nand more\n" })).rejects.toThrow(
      /not a trace file or a supported import/,
    );
  });
});
