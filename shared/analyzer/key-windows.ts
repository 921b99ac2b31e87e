/**
 * Keys by the hash of one KEY_LEAK_WINDOW-character window of each, behind a bit filter: the lookup
 * table of the key-leak search. A hash holds its keys in the order they came.
 *
 * Hundreds of thousands of hashes (8 per key) make a JS Map slow to fill, so the table is open
 * addressing over typed arrays; a hash's keys sit in a plain array slot (one key as is, more in an array).
 */
import { KEY_LEAK_WINDOW } from "../protocol/decisions.js";

const W = KEY_LEAK_WINDOW;
/** Filter bits per hash: at most 1 in 16 bits is set, so 15 in 16 misses stop at the filter. */
const BITS_PER_HASH = 16;
const MIN_SLOTS = 1 << 10;

/** The hash of the KEY_LEAK_WINDOW characters of `s` from `at`. */
export function windowHash(s: string, at: number): number {
  let h = 0;
  for (let j = 0; j < W; j++) h = (Math.imul(h, 31) + s.charCodeAt(at + j)) | 0;
  return h;
}

/** Spreads a window hash over all bits (the polynomial hash of similar text clusters). */
function mix(h: number): number {
  const x = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return x ^ (x >>> 16);
}

/** Window hashes to keys; most hashes have one key, kept as is rather than in an array. */
export class KeyWindows {
  /** Entry i: a distinct hash and its keys. */
  private hashes = new Int32Array(MIN_SLOTS);
  private readonly keys: (string | string[])[] = [];
  /** Slot -> entry + 1 (0: empty), linear probing; never more than half full. */
  private slots = new Int32Array(MIN_SLOTS * 2);
  private filter = new Int32Array((MIN_SLOTS * BITS_PER_HASH) >>> 5);

  /** Number of distinct window hashes. */
  get size(): number {
    return this.keys.length;
  }

  /** Files `key` under the window hash `h` (once, when the same key adds the same hash twice in a row). */
  add(h: number, key: string): void {
    const e = this.entryOf(h);
    if (e === -1) {
      this.insert(h, key);
      return;
    }
    const keys = this.keys[e] as string | string[];
    if (typeof keys === "string") {
      if (keys !== key) this.keys[e] = [keys, key];
    } else if (keys[keys.length - 1] !== key) keys.push(key);
  }

  /** The keys filed under `h`, in the order they were added, or undefined. */
  get(h: number): string | readonly string[] | undefined {
    const m = mix(h);
    const bit = m & ((this.filter.length << 5) - 1);
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return undefined;
    const e = this.entryOf(h);
    return e === -1 ? undefined : this.keys[e];
  }

  private entryOf(h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let s = mix(h) & mask; ; s = (s + 1) & mask) {
      const e = (slots[s] as number) - 1;
      if (e === -1 || this.hashes[e] === h) return e;
    }
  }

  private insert(h: number, key: string): void {
    const e = this.keys.length;
    this.keys.push(key);
    if (e === this.hashes.length) this.resize(e * 2);
    this.hashes[e] = h;
    this.place(e);
  }

  /** Puts entry `e` in its slot and its filter bit. */
  private place(e: number): void {
    const h = this.hashes[e] as number;
    const m = mix(h);
    const slots = this.slots;
    const mask = slots.length - 1;
    let s = m & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = e + 1;
    const bit = m & ((this.filter.length << 5) - 1);
    this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
  }

  private resize(entries: number): void {
    const hashes = new Int32Array(entries);
    hashes.set(this.hashes);
    this.hashes = hashes;
    this.slots = new Int32Array(entries * 2);
    this.filter = new Int32Array((entries * BITS_PER_HASH) >>> 5);
    for (let e = 0; e < this.keys.length - 1; e++) this.place(e);
  }
}
