import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import { encodeHeader } from "../../../shared/trace/codec.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../../shared/trace/record.js";
import { readTrace } from "../../trace/trace-reader.js";
import type { Bench, BenchRow } from "./bench-row.js";
import { benchText } from "./bench-trace.js";

/**
 * Issue 36 item 3: would a frame record that carries the frame's bytes unescaped (a small JSON header line, then a
 * payload line of a length the header gives in bytes) let the analyzer parse each frame once and the tap skip
 * JSON-string escaping? Measured on two shapes, side by side in one process: today's format (read, parse the
 * record, parse its `raw`) against the prototype (read, parse the header, parse the payload), and the writer's
 * encoding of both. The prototype is a measurement only: no reader or writer of the project knows it.
 */

/** 1M frames; `ACP_RI_BENCH_FRAMES` overrides it for a quick run. */
const FRAMES = Number(process.env.ACP_RI_BENCH_FRAMES ?? 1_000_000);
const ROUNDS = 3;
const CHUNK = 1 << 20;
const NEWLINE = 0x0a;
/** The goal the brief set for adopting the prototype: at least this much off the reader's time. */
const READ_GOAL = 0.75;

/** One frame as the tap sees it: its bytes and where it went. */
interface Frame {
  readonly dir: "client->agent" | "agent->client";
  readonly bytes: Buffer;
}

/** The two shapes: many small notifications, or keyed prompts each answered (request/answer ping-pong). */
type Shape = "notifications" | "pairs";

/** The `i`th frame of a shape (a quote and a newline escaped inside one in 16, as agents' text has them). */
function frameOf(shape: Shape, i: number): Frame {
  const sessionId = `sess-${i % 8}`;
  const quoted = i % 16 === 0 ? ' "quoted"\\n' : "";
  if (shape === "notifications") {
    const update = {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: benchText(i, 150) + quoted },
    };
    const msg = { jsonrpc: "2.0", method: "session/update", params: { sessionId, update } };
    return { dir: "agent->client", bytes: Buffer.from(JSON.stringify(msg)) };
  }
  const id = i >> 1;
  if (i % 2 === 0) {
    const prompt = [{ type: "text", text: benchText(i, 160) + quoted }];
    const params = { sessionId, prompt, idempotencyKey: randomUUID() };
    return {
      dir: "client->agent",
      bytes: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params })),
    };
  }
  const result = { stopReason: "end_turn", messageId: `msg-${id}` };
  return { dir: "agent->client", bytes: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, result })) };
}

/** Today's line for a frame, as the tap's writer builds it (trace-writer.ts `plainFrameLine`). */
function todayLine(seq: number, ts: number, dir: string, raw: string): string {
  return `{"seq":${seq},"ts":${ts},"type":"frame","conn":1,"dir":"${dir}","raw":${JSON.stringify(raw)}}`;
}

/** The prototype's header line: today's record without `raw`, with the payload's length in bytes. */
function protoHeader(seq: number, ts: number, dir: string, bytes: number): string {
  return `{"seq":${seq},"ts":${ts},"type":"frame","conn":1,"dir":"${dir}","bytes":${bytes}}`;
}

/** Writes `frames` into a file of each format; returns their paths. */
function writeFiles(dir: string, shape: Shape, frames: readonly Frame[]): { today: string; proto: string } {
  const today = join(dir, `${shape}.today.jsonl`);
  const proto = join(dir, `${shape}.proto.jsonl`);
  const header = encodeHeader({
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "acp-retry-inspector bench",
    startedAt: new Date(0).toISOString(),
  });
  const t = openSync(today, "w");
  const p = openSync(proto, "w");
  writeSync(t, header);
  writeSync(p, header);
  let a: string[] = [];
  let b: Buffer[] = [];
  frames.forEach((f, i) => {
    const seq = i + 1;
    const ts = 1_700_000_000_000 + i;
    a.push(todayLine(seq, ts, f.dir, f.bytes.toString("utf8")));
    b.push(Buffer.from(`${protoHeader(seq, ts, f.dir, f.bytes.length)}\n`), f.bytes, Buffer.from("\n"));
    if (a.length === 10_000 || i === frames.length - 1) {
      writeSync(t, `${a.join("\n")}\n`);
      writeSync(p, Buffer.concat(b));
      a = [];
      b = [];
    }
  });
  closeSync(t);
  closeSync(p);
  return { today, proto };
}

/** Calls `line(text)` for each line of the file (decoded a chunk at a time, as readTrace does). */
function eachLine(path: string, line: (text: string) => void): void {
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(CHUNK);
  let pending = "";
  for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
    const chunk = pending + buf.toString("utf8", 0, n);
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      line(chunk.slice(start, nl));
      start = nl + 1;
    }
    pending = chunk.slice(start);
  }
  closeSync(fd);
}

/** The baseline the analyzer bench uses: one JSON.parse per line of today's file. */
function parseLoop(path: string): number {
  let n = 0;
  eachLine(path, (l) => {
    JSON.parse(l);
    n++;
  });
  return n;
}

/** (a) Today's reader: parse the record, then the frame in its `raw`. */
function readToday(path: string): number {
  let n = 0;
  let first = true;
  eachLine(path, (l) => {
    const r = JSON.parse(l);
    if (first) first = false;
    else if (r.type === "frame") {
      JSON.parse(r.raw);
      n++;
    }
  });
  return n;
}

/**
 * (b) The prototype's reader, on bytes: the header line is decoded and parsed, then the payload of the length it
 * gives is decoded (it is the record's `raw`) and parsed, once each. A payload not followed by a newline is an error.
 */
function readProto(path: string): number {
  const fd = openSync(path, "r");
  let buf = Buffer.allocUnsafe(CHUNK);
  let have = 0;
  let n = 0;
  let first = true;
  for (let got = readSync(fd, buf, 0, CHUNK, null); got > 0; ) {
    have += got;
    let pos = 0;
    for (;;) {
      const nl = buf.indexOf(NEWLINE, pos);
      if (nl === -1 || nl >= have) break;
      const r = JSON.parse(buf.toString("utf8", pos, nl));
      if (first) {
        first = false;
        pos = nl + 1;
        continue;
      }
      const end = nl + 1 + r.bytes;
      if (end >= have) break; // payload (and its newline) not all here: read more
      if (buf[end] !== NEWLINE) throw new Error(`payload of seq ${r.seq} not followed by a newline`);
      r.raw = buf.toString("utf8", nl + 1, end);
      JSON.parse(r.raw);
      n++;
      pos = end + 1;
    }
    const rest = have - pos;
    const next = rest > CHUNK / 2 ? Buffer.allocUnsafe(rest * 2) : Buffer.allocUnsafe(CHUNK);
    buf.copy(next, 0, pos, have);
    buf = next;
    have = rest;
    got = readSync(fd, buf, have, buf.length - have, null);
  }
  closeSync(fd);
  return n;
}

/** The analyzer as `analyze` runs it on today's file (readTrace + Analyzer), for the projection. */
async function analyze(path: string): Promise<number> {
  const analyzer = new Analyzer();
  for await (const ev of readTrace(path)) {
    if (ev.kind === "record") analyzer.ingest(ev.record);
    else if (ev.kind === "header") analyzer.ingestHeader(ev.header);
  }
  return analyzer.model().frames;
}

/** (c) The writer, today: the tap's bytes decoded, `raw` escaped by JSON.stringify, the line encoded into the batch. */
function encodeToday(frames: readonly Frame[], batch: Buffer): number {
  let total = 0;
  let at = 0;
  frames.forEach((f, i) => {
    const line = todayLine(i + 1, 1_700_000_000_000 + i, f.dir, f.bytes.toString("utf8"));
    if (at + line.length * 3 + 1 > batch.length) {
      total += at;
      at = 0;
    }
    at += batch.write(line, at);
    batch[at++] = NEWLINE;
  });
  return total + at;
}

/** (c) The writer, prototype: the header encoded into the batch, the frame's bytes copied after it as they are. */
function encodeProto(frames: readonly Frame[], batch: Buffer): number {
  let total = 0;
  let at = 0;
  frames.forEach((f, i) => {
    const head = protoHeader(i + 1, 1_700_000_000_000 + i, f.dir, f.bytes.length);
    if (at + head.length * 3 + f.bytes.length + 2 > batch.length) {
      total += at;
      at = 0;
    }
    at += batch.write(head, at);
    batch[at++] = NEWLINE;
    at += f.bytes.copy(batch, at);
    batch[at++] = NEWLINE;
  });
  return total + at;
}

/** CPU time (user + system) of `fn`, in ms, with its value. */
async function cpu<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, value };
}

/** Best (least CPU) of ROUNDS, the measurements interleaved round by round. */
async function bestOf(fns: Record<string, () => unknown>): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, fn] of Object.entries(fns)) {
      const { ms } = await cpu(fn);
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms);
    }
  return best;
}

/** Whether jq reads the file to its end (`jq -c type`), and how many values it saw. */
function jqReads(path: string): string {
  try {
    const out = execFileSync("jq", ["-c", "type", path], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return `reads (${out.split("\n").length - 1} values)`;
  } catch (err) {
    return `fails (${(err as { stderr?: string }).stderr?.toString().trim().slice(0, 80) ?? String(err)})`;
  }
}

export const traceFormatBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-format-"));
  const rows: BenchRow[] = [];
  try {
    for (const shape of ["notifications", "pairs"] as const) {
      const frames = Array.from({ length: FRAMES }, (_, i) => frameOf(shape, i));
      const files = writeFiles(dir, shape, frames);
      const todayMb = statSync(files.today).size / 1e6;
      const protoMb = statSync(files.proto).size / 1e6;
      const batch = Buffer.allocUnsafe(1 << 20);
      const payloadMb = frames.reduce((s, f) => s + f.bytes.length, 0) / 1e6;
      const t = await bestOf({
        parse: () => parseLoop(files.today),
        today: () => readToday(files.today),
        proto: () => readProto(files.proto),
        analyzer: () => analyze(files.today),
        encToday: () => encodeToday(frames, batch),
        encProto: () => encodeProto(frames, batch),
      });
      const ms = (k: string) => t[k] ?? Number.NaN;
      const s = (k: string) => `${(ms(k) / 1000).toFixed(2)} s`;
      const what = `${shape}, ${(FRAMES / 1e6).toFixed(2)}M frames`;
      const projected = ms("analyzer") - (ms("today") - ms("proto"));
      rows.push(
        {
          name: `read, ${what}: (b) header + payload parsed once each vs (a) record + raw`,
          measured: `${s("proto")} CPU (b), ${protoMb.toFixed(0)} MB`,
          baseline: `${s("today")} CPU (a), ${todayMb.toFixed(0)} MB; ${s("parse")} one JSON.parse a line`,
          ratio: ms("proto") / ms("today"),
          goal: `<= ${READ_GOAL} of (a) to adopt it`,
          met: ms("proto") / ms("today") <= READ_GOAL,
        },
        {
          name: `analyzer / parse loop, ${what}: today, and with (b)'s saving (projected)`,
          measured: `${s("analyzer")} CPU today; ${(projected / 1000).toFixed(2)} s with (b)`,
          baseline: `${s("parse")} read + JSON.parse loop`,
          ratio: ms("analyzer") / ms("parse"),
          goal: `informational: with (b) ${(projected / ms("parse")).toFixed(2)}x; ${(projected / ms("analyzer")).toFixed(2)} of today`,
          met: true,
        },
        {
          name: `write (encode into a 1 MiB batch), ${what}: (b) vs (a)`,
          measured: `${((ms("encProto") * 1e6) / FRAMES).toFixed(0)} ns/frame, ${((protoMb / ms("encProto")) * 1000).toFixed(0)} MB/s (b)`,
          baseline: `${((ms("encToday") * 1e6) / FRAMES).toFixed(0)} ns/frame, ${((todayMb / ms("encToday")) * 1000).toFixed(0)} MB/s (a); frames ${payloadMb.toFixed(0)} MB`,
          ratio: ms("encProto") / ms("encToday"),
          goal: "<= 1 (no loss on the writer)",
          met: ms("encProto") <= ms("encToday"),
        },
        {
          name: `file size and jq, ${what}`,
          measured: `(b) ${protoMb.toFixed(0)} MB, jq ${jqReads(files.proto)}`,
          baseline: `(a) ${todayMb.toFixed(0)} MB, jq ${jqReads(files.today)}`,
          ratio: protoMb / todayMb,
          goal: "informational",
          met: true,
        },
      );
      rmSync(files.today);
      rmSync(files.proto);
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
