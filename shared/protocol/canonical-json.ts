/**
 * Canonical JSON: object keys sorted at every depth, so two prompts compare equal whatever their key
 * order. One writer serves the analyzer (prompt digests) and the key ledger (prompt fingerprints).
 */

/** JSON with object keys sorted at every depth; nested `undefined` as JSON.stringify has it, a bare one as "undefined". */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const parts: string[] = [];
  writeCanonical(value, parts);
  return parts.join("");
}

/** What is left to write of one array or object: its items (or keys) from `next` on. */
interface Open {
  readonly value: readonly unknown[] | Record<string, unknown>;
  /** The object's keys, sorted; null for an array. */
  readonly keys: readonly string[] | null;
  next: number;
}

/**
 * Appends the canonical JSON of `value` to `parts` (joined once at the end: one flat string, no
 * nested joins). Iterative, with its own stack: a prompt nested 100,000 deep from the wire costs
 * memory in proportion to its size, never the call stack (issue 31: 8,000 nested arrays killed the tap).
 */
function writeCanonical(value: unknown, parts: string[]): void {
  const stack: Open[] = [];
  let item: unknown = value;
  for (;;) {
    if (item === null || typeof item !== "object") parts.push(JSON.stringify(item) ?? "null");
    else if (Array.isArray(item)) {
      parts.push("[");
      stack.push({ value: item, keys: null, next: 0 });
    } else {
      const obj = item as Record<string, unknown>;
      parts.push("{");
      stack.push({ value: obj, keys: definedKeys(obj), next: 0 });
    }
    // The next item to write: the next entry of the innermost open value, closing the finished ones.
    let found = false;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Open;
      const i = top.next++;
      if (top.keys === null) {
        const arr = top.value as readonly unknown[];
        if (i < arr.length) {
          if (i > 0) parts.push(",");
          item = arr[i];
          found = true;
          break;
        }
        parts.push("]");
      } else {
        if (i < top.keys.length) {
          const k = top.keys[i] as string;
          parts.push(i > 0 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
          item = (top.value as Record<string, unknown>)[k];
          found = true;
          break;
        }
        parts.push("}");
      }
      stack.pop();
    }
    if (!found) return;
  }
}

/** An object's keys whose values are not undefined, sorted (JSON leaves undefined members out). */
function definedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
}
