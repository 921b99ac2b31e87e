/**
 * The placeholders of a redacted export, `[redacted #3: 42 chars]`: the length of the original
 * string and a number that is the same for equal strings within one export, so the analyzer's
 * content comparisons stay true. A string equal to an idempotency key of the trace is kept as it
 * is, and a placeholder of a string that contains one names it, so a leaked key is still found.
 */
import { KeyLeakIndex } from "../analyzer/key-leak.js";

/** A whole placeholder as this class writes it: its number is group 1. */
const PLACEHOLDER = /^\[redacted #(\d{1,9}): \d{1,12} chars(?:; contains key [^\]]*)?\]$/;

/** Numbers distinct redacted strings and keeps the trace's keys visible inside placeholders. */
export class Placeholders {
  private readonly numbers = new Map<string, number>();
  private readonly found = new Set<string>();
  private readonly keys = new KeyLeakIndex();
  private readonly exactKeys: ReadonlySet<string>;

  constructor(keys: Iterable<string>) {
    this.exactKeys = new Set(keys);
    for (const k of this.exactKeys) this.keys.add(k);
  }

  /** Numbers of placeholders met in the input (an export of an export): a fresh string never gets one. */
  private readonly kept = new Set<number>();
  private next = 1;

  /**
   * The placeholder for `s`. A string equal to a key of this trace stays as it is; so does a
   * placeholder itself (exporting a redacted trace again must not replace `[redacted #1: 52 chars]`
   * with a placeholder that says 23 chars), and its number is not given to a string met after it.
   */
  readonly of = (s: string): string => {
    if (this.exactKeys.has(s)) return s;
    const placeholder = PLACEHOLDER.exec(s);
    if (placeholder) {
      this.kept.add(Number(placeholder[1]));
      return s;
    }
    let n = this.numbers.get(s);
    if (n === undefined) {
      while (this.kept.has(this.next)) this.next++;
      n = this.next++;
      this.numbers.set(s, n);
    }
    this.keys.scan(s, this.found);
    let keys = "";
    if (this.found.size > 0) {
      keys = `; contains key ${[...this.found].map((k) => JSON.stringify(k)).join(", ")}`;
      this.found.clear();
    }
    return `[redacted #${n}: ${s.length} chars${keys}]`;
  };
}
