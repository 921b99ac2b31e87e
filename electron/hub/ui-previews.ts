/**
 * The lines UIs get for a trace, live (`tap-endpoint.ts`) and when a window reloads a trace after a
 * ring gap (`readTracePreviews`): a frame over `FRAME_PREVIEW_BYTES` as its preview
 * (shared/trace/frame-preview.ts), every other line as stored. The preview's cut strings no longer
 * hold what they held, so the key-leak scan the UI runs on an Agent->Client frame is run here on
 * the full bytes, against the keys of the trace's earlier `session/prompt` requests, and its result
 * travels with the preview (`previewLeaks`).
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { KeyLeakIndex } from "../../shared/analyzer/key-leak.js";
import { checkPromptParamsKey } from "../../shared/protocol/idempotency-key.js";
import { LineCutter } from "../../shared/protocol/line-cutter.js";
import { FRAME_PREVIEW_BYTES, previewFrame } from "../../shared/trace/frame-preview.js";
import type { FrameRecord } from "../../shared/trace/record.js";

type Loose = Partial<Record<keyof FrameRecord, unknown>> | null;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One trace's lines as UIs get them; it learns the trace's keys from the lines it is given, in order. */
export class UiPreviews {
  private readonly keys = new KeyLeakIndex();

  /** Whether `line` needs reading (a large line, or maybe a keyed prompt) before it is passed on. */
  private static needsEntry(line: string): boolean {
    return line.length * 3 > FRAME_PREVIEW_BYTES || line.includes("session/prompt");
  }

  /**
   * The line a UI gets for trace line `line` (the record `entry`, when already parsed): the same
   * line, or a large frame's preview.
   */
  lineFor(line: string, entry?: unknown): string {
    if (entry === undefined) {
      if (!UiPreviews.needsEntry(line)) return line;
      entry = parsed(line);
    }
    const r = entry as Loose;
    if (r?.type !== "frame" || typeof r.raw !== "string") return line;
    const raw = r.raw;
    const text = r.encoding === undefined; // base64 is not JSON: no key in it, no scan of it
    if (text && r.dir === "client->agent" && raw.includes("session/prompt")) this.learn(raw);
    if (raw.length * 3 <= FRAME_PREVIEW_BYTES) return line;
    const preview = previewFrame(r as FrameRecord);
    if (preview === r) return line;
    if (!text || r.dir !== "agent->client" || this.keys.size === 0) return JSON.stringify(preview);
    const found = new Set<string>();
    this.keys.scan(parsed(raw), found);
    return JSON.stringify(found.size > 0 ? { ...preview, previewLeaks: [...found] } : preview);
  }

  /** Adds the key of a Client's `session/prompt` request to the keys searched for. */
  private learn(raw: string): void {
    const m = parsed(raw) as { method?: unknown; id?: unknown; params?: unknown } | undefined;
    if (m === null || typeof m !== "object" || m.method !== "session/prompt" || m.id === undefined) return;
    const check = checkPromptParamsKey(m.params);
    if (check.kind === "valid") this.keys.add(check.key);
  }
}

/**
 * The first `bytes` bytes of trace file `file` as UIs get them (`UiPreviews`), in chunks of whole
 * lines. A last line without its newline (a write still landing) is left out: the reload reads
 * the file again, or replays the live record, when it ends too early.
 */
export async function* previewedTrace(file: string, bytes: number): AsyncGenerator<string> {
  if (bytes === 0) return;
  const previews = new UiPreviews();
  const decoder = new StringDecoder("utf8");
  const lines = new LineCutter();
  for await (const chunk of createReadStream(file, { end: bytes - 1, highWaterMark: 1 << 20 })) {
    let out = "";
    for (const line of lines.push(decoder.write(chunk as Buffer))) out += `${previews.lineFor(line)}\n`;
    if (out.length > 0) yield out;
  }
}
