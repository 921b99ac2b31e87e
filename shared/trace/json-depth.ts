/**
 * How deep JSON nests, measured without recursion: every walker of wire or file data (redaction,
 * the header and `hello` checks, the JSON writers) asks first and leaves a deeper value as it is,
 * flagged, instead of overflowing the call stack (issue 31: one frame of 8,000 nested arrays).
 */
import { walkJson } from "../json/json-walk.js";
import { writeJson } from "../json/json-writer.js";

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
  // walkJson counts the walked value at depth 0; `limit` counts it as the first level.
  return walkJson(value, { maxDepth: limit - 1 }, () => true);
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
  writeJson(value, (piece) => parts.push(piece), writtenKeys);
  return parts.join("");
}

/** The keys JSON.stringify writes: those whose values are not undefined, functions or symbols, in order. */
function writtenKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).filter((k) => {
    const v = obj[k];
    return v !== undefined && typeof v !== "function" && typeof v !== "symbol";
  });
}
