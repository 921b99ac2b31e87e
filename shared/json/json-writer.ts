/**
 * The one iterative JSON writer: writes a value piece by piece with a stack of its own, so a value
 * nested 100,000 deep costs memory in proportion to its size, never the call stack (issue 31: 8,000
 * nested arrays killed the tap). The canonical writer (sorted keys) and `jsonText` (JSON.stringify's
 * text at any depth) differ only in which keys they write, in what order.
 */

/** Strings longer than this are escaped a slice at a time, not copied whole by one `JSON.stringify`. */
const STRING_SLICE_CHARS = 64 * 1024;

/** What is left to write of one array or object: its items (or keys) from `next` on. */
interface Open {
  readonly value: readonly unknown[] | Record<string, unknown>;
  /** The object's keys to write, in order; null for an array. */
  readonly keys: readonly string[] | null;
  next: number;
}

/**
 * Writes `value` as JSON text to `write`, piece by piece, iteratively. An object's members are the
 * keys `keysOf` gives, in its order; a value JSON has no text for is written `null`.
 */
export function writeJson(
  value: unknown,
  write: (piece: string) => void,
  keysOf: (obj: Record<string, unknown>) => readonly string[],
): void {
  const stack: Open[] = [];
  let item: unknown = value;
  for (;;) {
    if (typeof item === "string") writeJsonString(item, write);
    else if (item === null || typeof item !== "object") write(JSON.stringify(item) ?? "null");
    else if (Array.isArray(item)) {
      write("[");
      stack.push({ value: item, keys: null, next: 0 });
    } else {
      const obj = item as Record<string, unknown>;
      write("{");
      stack.push({ value: obj, keys: keysOf(obj), next: 0 });
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
export function writeJsonString(text: string, write: (piece: string) => void): void {
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
