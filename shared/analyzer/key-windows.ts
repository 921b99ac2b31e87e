/**
 * The substring half of the key-leak search: keys filed under the hash of KEY_LEAK_WINDOW-character
 * windows, and the scan of a string's aligned windows for them (the why is in key-leak.ts).
 *
 * It runs on every string an Agent sends and is filled with 8 windows per key, so it is laid out for
 * that: typed arrays the garbage collector does not trace (a JS Map of 450k hashes took ~5 µs per
 * key to fill), and two cheap filters in front of the hash table. Reading a character costs ~30
 * instructions in V8, so a window is first looked up by the pair of its characters 0 and 4 (a 64 Kbit
 * table): text windows whose pair no key window has are skipped after two reads instead of eight.
 * Then a bit filter on the full hash, then the table. Candidates are confirmed with `includes`.
 */
import { KEY_LEAK_WINDOW } from "../protocol/analyzer-choices.js";

const W = KEY_LEAK_WINDOW;
/** The second character of a window's pair: in the middle, so that both halves count. */
const PAIR_AT = W >> 1;
/** Bits of the hash filter per distinct hash: 1 in 16 set, so 15 in 16 misses stop there. */
const FILTER_BITS_PER_HASH = 16;
const MIN_SLOTS = 1 << 10;

/** The hash of the KEY_LEAK_WINDOW characters of `s` from `at`. */
function windowHash(s: string, at: number): number {
  let h = 0;
  for (let j = 0; j < W; j++) h = (Math.imul(h, 31) + s.charCodeAt(at + j)) | 0;
  return h;
}

/** Spreads a window hash over all bits (the polynomial hash of similar text clusters). */
function mix(h: number): number {
  const x = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return x ^ (x >>> 16);
}

/** The pair of characters 0 and PAIR_AT of the window of `s` at `at`, as 16 bits. */
function pairOf(s: string, at: number): number {
  return ((s.charCodeAt(at) & 0xff) << 8) | (s.charCodeAt(at + PAIR_AT) & 0xff);
}

function hasBit(bits: Int32Array, i: number): boolean {
  return ((bits[i >>> 5] as number) & (1 << (i & 31))) !== 0;
}

function setBit(bits: Int32Array, i: number): void {
  bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
}

/** Keys filed under window hashes; a hash keeps its keys in the order they were filed. */
export class KeyWindows {
  private readonly keys: string[] = [];
  /** Open addressing, never more than half full: [hash, first item + 1 (0: empty slot)] per slot. */
  private slots = new Int32Array(MIN_SLOTS * 2);
  private hashes = 0;
  /** Items: the key (an index into `keys`) and the next item of the same hash (-1: none). */
  private itemKey = new Int32Array(MIN_SLOTS);
  private itemNext = new Int32Array(MIN_SLOTS);
  /** For the first item of each hash: the last item of that hash, so filing a key never walks the chain (keys sharing a tail share one). */
  private itemLast = new Int32Array(MIN_SLOTS);
  private items = 0;
  private filter = new Int32Array((MIN_SLOTS * FILTER_BITS_PER_HASH) >>> 5);
  private readonly pairs = new Int32Array(1 << 11);

  /** Number of distinct window hashes. */
  get size(): number {
    return this.hashes;
  }

  /** Files `key` under its window at `at` (once, when the same key files the same hash twice in a row). */
  add(key: string, at: number): void {
    if (this.keys[this.keys.length - 1] !== key) this.keys.push(key);
    const k = this.keys.length - 1;
    const h = windowHash(key, at);
    setBit(this.pairs, pairOf(key, at));
    const s = this.slotOf(h);
    const first = (this.slots[s + 1] as number) - 1;
    if (first === -1) {
      const item = this.newItem(k);
      this.itemLast[item] = item;
      this.slots[s] = h;
      this.slots[s + 1] = item + 1;
      this.hashes++;
      if (this.hashes * 2 > this.slots.length >>> 1) this.grow();
      else setBit(this.filter, mix(h) & ((this.filter.length << 5) - 1));
      return;
    }
    const last = this.itemLast[first] as number;
    if (this.itemKey[last] === k) return;
    const item = this.newItem(k);
    this.itemNext[last] = item;
    this.itemLast[first] = item;
  }

  /** Adds to `found` every filed key that `s` contains and whose window one of its aligned windows matches. */
  findIn(s: string, found: Set<string>): void {
    const pairs = this.pairs;
    const filter = this.filter;
    const filterMask = (filter.length << 5) - 1;
    for (let q = 0; q + W <= s.length; q += W) {
      if (!hasBit(pairs, pairOf(s, q))) continue;
      const h = windowHash(s, q);
      if (!hasBit(filter, mix(h) & filterMask)) continue;
      const slot = this.slotOf(h);
      for (
        let item = (this.slots[slot + 1] as number) - 1;
        item !== -1;
        item = this.itemNext[item] as number
      ) {
        const key = this.keys[this.itemKey[item] as number] as string;
        if (s.includes(key)) found.add(key);
      }
    }
  }

  /** The position in `slots` of hash `h`, or of the empty slot where it would go. */
  private slotOf(h: number): number {
    const slots = this.slots;
    const mask = slots.length - 2;
    for (let s = (mix(h) << 1) & mask; ; s = (s + 2) & mask) {
      if (slots[s + 1] === 0 || slots[s] === h) return s;
    }
  }

  private newItem(k: number): number {
    if (this.items === this.itemKey.length) {
      const key = new Int32Array(this.items * 2);
      key.set(this.itemKey);
      this.itemKey = key;
      const next = new Int32Array(this.items * 2);
      next.set(this.itemNext);
      this.itemNext = next;
      const last = new Int32Array(this.items * 2);
      last.set(this.itemLast);
      this.itemLast = last;
    }
    const i = this.items++;
    this.itemKey[i] = k;
    this.itemNext[i] = -1;
    return i;
  }

  /** Doubles the table (and the hash filter with it) and files every hash again. */
  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.filter = new Int32Array(this.filter.length * 2);
    const filterMask = (this.filter.length << 5) - 1;
    for (let s = 0; s < old.length; s += 2) {
      if (old[s + 1] === 0) continue;
      const h = old[s] as number;
      const to = this.slotOf(h);
      this.slots[to] = h;
      this.slots[to + 1] = old[s + 1] as number;
      setBit(this.filter, mix(h) & filterMask);
    }
  }
}
