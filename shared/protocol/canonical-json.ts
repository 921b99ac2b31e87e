/**
 * Canonical JSON: object keys sorted at every depth, so two prompts compare equal whatever their key
 * order. One writer serves the analyzer (prompt digests) and the key ledger (prompt fingerprints).
 */
import { TextSha256 } from "./sha256-text.js";

/**
 * Canonical forms up to this many characters are their own digest; a longer one is hashed as it is
 * written (SHA-256 of its code units and its length), so a 100 MB prompt text is never copied whole.
 */
export const CANONICAL_DIGEST_MAX_CHARS = 64 * 1024;

/** Strings longer than this are escaped a slice at a time, not copied whole by one `JSON.stringify`. */
const STRING_SLICE_CHARS = 64 * 1024;

/** JSON with object keys sorted at every depth; nested `undefined` as JSON.stringify has it, a bare one as "undefined". */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const parts: string[] = [];
  writeCanonical(value, (s) => parts.push(s));
  return parts.join("");
}

/**
 * A string equal for two values exactly when their canonical JSON is (up to SHA-256 collisions): the
 * canonical JSON itself up to CANONICAL_DIGEST_MAX_CHARS, else `#sha256:HEX:LENGTH` (no JSON text
 * starts with `#`). The canonical form is hashed as it is written, never held whole.
 */
export function canonicalDigest(value: unknown): string {
  if (value === null || (typeof value !== "object" && typeof value !== "string"))
    return JSON.stringify(value) ?? "undefined";
  const parts: string[] = [];
  let length = 0;
  let hash: TextSha256 | null = null;
  writeCanonical(value, (s) => {
    length += s.length;
    if (hash) hash.update(s);
    else {
      parts.push(s);
      if (length <= CANONICAL_DIGEST_MAX_CHARS) return;
      hash = new TextSha256();
      for (const p of parts) hash.update(p);
      parts.length = 0;
    }
  });
  // TypeScript cannot see the callback's assignment to `hash`.
  const done = hash as TextSha256 | null;
  return done ? `#sha256:${done.hex()}:${length}` : parts.join("");
}

/** What is left to write of one array or object: its items (or keys) from `next` on. */
interface Open {
  readonly value: readonly unknown[] | Record<string, unknown>;
  /** The object's keys, sorted; null for an array. */
  readonly keys: readonly string[] | null;
  next: number;
}

/**
 * Writes the canonical JSON of `value` to `write`, piece by piece. Iterative, with its own stack: a
 * prompt nested 100,000 deep from the wire costs memory in proportion to its size, never the call
 * stack (issue 31: 8,000 nested arrays killed the tap).
 */
function writeCanonical(value: unknown, write: (piece: string) => void): void {
  const stack: Open[] = [];
  let item: unknown = value;
  for (;;) {
    if (typeof item === "string") writeString(item, write);
    else if (item === null || typeof item !== "object") write(JSON.stringify(item) ?? "null");
    else if (Array.isArray(item)) {
      write("[");
      stack.push({ value: item, keys: null, next: 0 });
    } else {
      const obj = item as Record<string, unknown>;
      write("{");
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
          if (i > 0) write(",");
          item = arr[i];
          found = true;
          break;
        }
        write("]");
      } else {
        if (i < top.keys.length) {
          const k = top.keys[i] as string;
          write(i > 0 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
          item = (top.value as Record<string, unknown>)[k];
          found = true;
          break;
        }
        write("}");
      }
      stack.pop();
    }
    if (!found) return;
  }
}

/**
 * Writes `text` as a JSON string, exactly as `JSON.stringify(text)`; a long one a slice at a time,
 * never cutting a surrogate pair (a lone surrogate is escaped, a pair is not).
 */
function writeString(text: string, write: (piece: string) => void): void {
  if (text.length <= STRING_SLICE_CHARS) {
    write(JSON.stringify(text));
    return;
  }
  write('"');
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + STRING_SLICE_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const escaped = JSON.stringify(text.slice(at, end));
    write(escaped.slice(1, -1));
    at = end;
  }
  write('"');
}

/** An object's keys whose values are not undefined, sorted (JSON leaves undefined members out). */
function definedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
}
