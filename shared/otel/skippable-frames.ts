/**
 * Which frames the span export may keep from its analyzer: an Agent's streaming notifications
 * (most frames of a busy session) can change no span, and parsing each one again would cost the
 * tap throughput. A frame is skipped only when its text shows that for certain; any doubt sends it
 * to the analyzer. The trace file and every other view still get every frame.
 */
import { KeyLeakIndex } from "../analyzer/key-leak.js";
import { KEY_LEAK_MIN_LENGTH, KEY_LEAK_SUBSTRING_MIN_LENGTH } from "../protocol/analyzer-choices.js";
import type { FrameRecord } from "../trace/record.js";

/** More short keys than this and the export stops skipping (each would cost a search per frame). */
const MAX_SHORT_KEYS = 32;

/** Decides which Agent frames cannot matter to any span; learns the session's keys as they appear. */
export class SkippableFrames {
  private readonly keys = new Set<string>();
  private readonly longKeys = new KeyLeakIndex();
  private readonly shortKeys: string[] = [];
  private readonly found = new Set<string>();
  /** False once a key was seen that a text search of the raw line might miss. */
  private enabled = true;

  /** A key the analyzer knows: a frame that may mention it is never skipped (it could leak it). */
  learnKey(key: string): void {
    if (key.length < KEY_LEAK_MIN_LENGTH || this.keys.has(key)) return;
    this.keys.add(key);
    // JSON escapes these inside strings, so the raw line would not show the key as is.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
    if (/["\\\u0000-\u001f\u2028\u2029]/.test(key)) this.enabled = false;
    else if (key.length >= KEY_LEAK_SUBSTRING_MIN_LENGTH) this.longKeys.add(key);
    else if (this.shortKeys.push(key) > MAX_SHORT_KEYS) this.enabled = false;
  }

  /**
   * True when the frame is certainly not a request or a response (no `"id"` and no `\u` escape
   * that could spell one), names no user message (those attribute messageIds to submissions) and
   * shows none of the known keys: an Agent notification no span depends on.
   */
  skippable(r: FrameRecord): boolean {
    if (!this.enabled || r.dir !== "agent->client") return false;
    if (r.flags !== undefined || r.encoding !== undefined || r.dropped || r.origin !== undefined)
      return false;
    const raw = r.raw;
    if (raw.includes('"id"') || raw.includes("\\u") || raw.includes("user_message")) return false;
    if (this.keys.size === 0) return true;
    for (const k of this.shortKeys) if (raw.includes(k)) return false;
    this.longKeys.scan(raw, this.found);
    if (this.found.size === 0) return true;
    this.found.clear();
    return false;
  }
}
