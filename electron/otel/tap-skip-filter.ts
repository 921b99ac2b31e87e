import { SkippableFrames } from "../../shared/otel/skippable-frames.js";
import type { TraceRecord } from "../../shared/trace/record.js";

/** Longest `idempotencyKey` string literal read by the text scan; a longer one is parsed whole. */
const MAX_KEY_LITERAL = 4096;
/** A Client frame larger than this that needs a full parse to find its keys turns skipping off instead. */
const MAX_PARSED_FRAME = 1 << 20;

/**
 * The tap's side of the span export's skipping (issue 36): which Agent frames need not be handed
 * to the export's worker at all, decided on the forwarding turn from the text alone. Its keys come
 * from a scan of the Client's frames here (every `"idempotencyKey"` string, a superset of the keys
 * the analyzer accepts), so a frame that may leak a key is never skipped, whatever the worker has
 * analysed yet. Any doubt (an escaped or non-UTF-8 Client frame it cannot read cheaply) turns
 * skipping off for the rest of the session: every frame then goes to the worker.
 */
export class TapSkipFilter {
  private readonly frames = new SkippableFrames();
  private off = false;
  /** Keys seen and not yet indexed: indexing waits for the first Agent frame that may be skipped. */
  private readonly pending = new Set<string>();

  /** Learns the keys a Client frame may carry; true when the record is an Agent frame no span depends on. */
  skippable(r: TraceRecord): boolean {
    if (r.type !== "frame") return false;
    if (r.dir === "client->agent") {
      if (!this.off) this.learn(r.raw, r.encoding !== undefined);
      return false;
    }
    if (this.off) return false;
    if (this.pending.size > 0) {
      // A request or a response is never skippable: the keys need not be indexed for it.
      if (r.raw.includes('"id"')) return false;
      for (const key of this.pending) this.frames.learnKey(key);
      this.pending.clear();
    }
    return this.frames.skippable(r);
  }

  private learn(raw: string, encoded: boolean): void {
    if (encoded) {
      this.off = true;
      return;
    }
    if (raw.includes("\\u")) {
      // The property name itself may be escaped: only a parse finds it.
      if (raw.length > MAX_PARSED_FRAME) this.off = true;
      else this.learnParsed(raw);
      return;
    }
    const name = '"idempotencyKey"';
    for (let at = raw.indexOf(name); at !== -1; at = raw.indexOf(name, at + name.length)) {
      let i = at + name.length;
      while (i < raw.length && " \t\r\n:".includes(raw[i] as string)) i++;
      if (raw[i] !== '"') continue;
      const end = this.literalEnd(raw, i);
      if (end === -1) continue;
      const literal = raw.slice(i, end + 1);
      if (!literal.includes("\\")) this.pending.add(literal.slice(1, -1));
      else {
        try {
          this.pending.add(JSON.parse(literal) as string);
        } catch {
          // Not a JSON string: the analyzer cannot read a key from it either.
        }
      }
    }
  }

  /** The index of the closing quote of the string literal opening at `start`, or -1 (too long or unclosed). */
  private literalEnd(raw: string, start: number): number {
    const stop = Math.min(raw.length, start + MAX_KEY_LITERAL);
    for (let i = start + 1; i < stop; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i;
    }
    if (stop < raw.length) this.off = true;
    return -1;
  }

  private learnParsed(raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (Array.isArray(message)) {
      // A batch: not read here; skipping goes off rather than miss a key in it.
      this.off = true;
      return;
    }
    const params = (message as { params?: unknown } | null)?.params;
    const key = (params as { idempotencyKey?: unknown } | null | undefined)?.idempotencyKey;
    if (typeof key === "string") this.pending.add(key);
  }
}
