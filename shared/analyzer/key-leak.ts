/**
 * Finding idempotency keys in Agent->Client messages, fast enough to run on every frame.
 *
 * The rule (decisions.ts): keys shorter than KEY_LEAK_MIN_LENGTH are never searched; a key leaks
 * when a string value anywhere in the parsed message equals it, or, for keys of at least
 * KEY_LEAK_SUBSTRING_MIN_LENGTH characters, contains it. Object property names are not searched.
 *
 * The substring search hashes only the windows of KEY_LEAK_WINDOW (W) characters that start at
 * multiples of W in the searched string. An occurrence of a key of length L >= 2W-1 covers such a
 * window whole at some offset o <= L-W of the key, and o can be any value of its residue class mod W
 * in that range; so indexing, for each residue, one window of the key (the last one) finds every
 * occurrence, reading at most each char of text once (key-windows.ts keeps the table and skips
 * most windows after reading two of their chars).
 */
import {
  KEY_LEAK_MIN_LENGTH,
  KEY_LEAK_SUBSTRING_MIN_LENGTH,
  KEY_LEAK_WINDOW,
} from "../protocol/analyzer-choices.js";
import { KeyWindows } from "./key-windows.js";

const W = KEY_LEAK_WINDOW;
/** Key lengths below this are noted one by one, so a string of a length no key has skips the set lookup. */
const NOTED_LENGTHS = 1024;

/** The set of keys to look for, and the search over a parsed message. */
export class KeyLeakIndex {
  private readonly exact = new Set<string>();
  private longest = 0;
  /** 1 at each length (below NOTED_LENGTHS) some key has: most Agent strings match none, and a miss in a big set is a cache miss. */
  private readonly lengths = new Uint8Array(NOTED_LENGTHS);
  /** Keys long enough for the substring search, by one window per residue class. */
  private readonly windows = new KeyWindows();

  /** Number of keys being searched for (keys too short to search are not counted). */
  get size(): number {
    return this.exact.size;
  }

  /** Adds a key to search for; a no-op for keys too short to search or already known. */
  add(key: string): void {
    if (key.length < KEY_LEAK_MIN_LENGTH) return;
    // One set operation, not a lookup then an insert: a new key misses the cache in a big set once, not twice.
    const known = this.exact.size;
    this.exact.add(key);
    if (this.exact.size === known) return;
    if (key.length > this.longest) this.longest = key.length;
    if (key.length < NOTED_LENGTHS) this.lengths[key.length] = 1;
    if (key.length < KEY_LEAK_SUBSTRING_MIN_LENGTH) return;
    // One window per residue class mod W, taken from the key's end: generated keys tend to share
    // prefixes (a fixed UUID head, a client name), and shared windows make long candidate lists.
    const last = key.length - W;
    for (let offset = last; offset > last - W; offset--) this.windows.add(key, offset);
  }

  /**
   * Adds to `found` the keys of `claimed` this index knows: the hub's scan of a large frame's full
   * bytes, for a preview whose cut strings no longer hold them (a frame's `previewLeaks`).
   */
  acceptClaimed(claimed: readonly unknown[], found: Set<string>): void {
    for (const key of claimed) if (typeof key === "string" && this.exact.has(key)) found.add(key);
  }

  /** Adds to `found` every known key that leaks in `value` (a parsed JSON message). */
  scan(value: unknown, found: Set<string>): void {
    if (typeof value === "string") this.scanString(value, found);
    else if (typeof value === "object" && value !== null) this.scanContainer(value, found);
  }

  /** Scans the items of an array or the values of an object, calling out only for strings and containers. */
  private scanContainer(value: object, found: Set<string>): void {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v === "string") {
          if (v.length >= KEY_LEAK_MIN_LENGTH) this.scanString(v, found);
        } else if (typeof v === "object" && v !== null) this.scanContainer(v, found);
      }
      return;
    }
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (typeof v === "string") {
        if (v.length >= KEY_LEAK_MIN_LENGTH) this.scanString(v, found);
      } else if (typeof v === "object" && v !== null) this.scanContainer(v, found);
    }
  }

  private scanString(s: string, found: Set<string>): void {
    const len = s.length;
    if (len < KEY_LEAK_MIN_LENGTH) return;
    if (len <= this.longest && (len >= NOTED_LENGTHS || this.lengths[len] === 1) && this.exact.has(s))
      found.add(s);
    if (len >= KEY_LEAK_SUBSTRING_MIN_LENGTH && this.windows.size > 0) this.windows.findIn(s, found);
  }
}
