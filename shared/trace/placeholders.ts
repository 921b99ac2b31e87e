/**
 * The placeholders of a redacted export, `[redacted #3: 42 chars]`: the length of the original
 * string and a number that is the same for equal strings within one export, so the analyzer's
 * content comparisons stay true. A string equal to an idempotency key of the trace is kept as it
 * is, and a placeholder of a string that contains one names it, so a leaked key is still found.
 */
import { KeyLeakIndex } from "../analyzer/key-leak.js";

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

  /** The placeholder for `s` (a string equal to a key of this trace stays as it is). */
  readonly of = (s: string): string => {
    if (this.exactKeys.has(s)) return s;
    let n = this.numbers.get(s);
    if (n === undefined) {
      n = this.numbers.size + 1;
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
