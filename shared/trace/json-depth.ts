/**
 * How deep JSON nests, measured without recursion: every walker of wire or file data (redaction,
 * the header and `hello` checks, the JSON writers) asks first and leaves a deeper value as it is,
 * flagged, instead of overflowing the call stack (issue 31: one frame of 8,000 nested arrays).
 */

/** The deepest nesting any walker of a frame or a header follows; deeper values are kept byte-exact and flagged. */
export const MAX_JSON_DEPTH = 512;

/** The flag text for a value past `MAX_JSON_DEPTH`. */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH}`;

/** True when the JSON text `text` opens more than `limit` arrays or objects inside each other. Linear, no recursion. */
export function jsonTextTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** True when the parsed value `value` holds arrays or objects more than `limit` deep. Iterative. */
export function valueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== "object") return false;
  const stack: { v: object; d: number }[] = [{ v: value, d: 1 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: object; d: number };
    if (d > limit) return true;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const child of Object.values(v))
      if (child !== null && typeof child === "object") stack.push({ v: child, d: d + 1 });
  }
  return false;
}

/** What is left to write of one array or object. */
interface OpenValue {
  readonly value: readonly unknown[] | Record<string, unknown>;
  readonly keys: readonly string[] | null;
  next: number;
  wrote: boolean;
}

/**
 * `JSON.stringify(value)` for plain JSON data at any depth: the native writer, and for a value too
 * deep for it (it recurses) the same text written with a stack of its own. Keys keep their order;
 * `undefined` and functions are left out of objects and written `null` in arrays, as JSON.stringify does.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  const parts: string[] = [];
  const stack: OpenValue[] = [];
  let item: unknown = value;
  for (;;) {
    if (item !== null && typeof item === "object") {
      const isArray = Array.isArray(item);
      parts.push(isArray ? "[" : "{");
      stack.push({
        value: item as OpenValue["value"],
        keys: isArray ? null : Object.keys(item),
        next: 0,
        wrote: false,
      });
    } else parts.push(JSON.stringify(item) ?? "null");
    let found = false;
    while (stack.length > 0 && !found) {
      const top = stack[stack.length - 1] as OpenValue;
      if (top.keys === null) {
        const arr = top.value as readonly unknown[];
        if (top.next < arr.length) {
          if (top.wrote) parts.push(",");
          top.wrote = true;
          const v = arr[top.next++];
          item = typeof v === "function" ? undefined : v;
          found = true;
          continue;
        }
        parts.push("]");
      } else {
        const obj = top.value as Record<string, unknown>;
        while (top.next < top.keys.length) {
          const k = top.keys[top.next++] as string;
          const v = obj[k];
          if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
          parts.push(`${top.wrote ? "," : ""}${JSON.stringify(k)}:`);
          top.wrote = true;
          item = v;
          found = true;
          break;
        }
        if (found) continue;
        parts.push("}");
      }
      stack.pop();
    }
    if (!found) return parts.join("");
  }
}
