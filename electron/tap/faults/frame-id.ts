import type { JsonRpcId } from "../../../shared/protocol/frame.js";

/** Index just past the JSON string that starts at `i` (a `"`), or -1 when it never ends. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  return -1;
}

/** Index just past the JSON value that starts at `i`, or -1 when it is cut short. */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') {
        j = skipString(text, j) - 1;
        if (j < 0) return -1;
      } else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !/[\s,}\]]/.test(text[j] as string)) j++;
  return j === i ? -1 : j;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}

/**
 * The text of a JSON-RPC message with only its top-level `id` value replaced by `id`: every other
 * byte (member order, spacing, escapes, numbers) stays as it was. `null` when `text` is not a JSON
 * object with an `id` member, or the result does not parse back with the new id.
 */
export function withJsonRpcId(text: string, id: JsonRpcId): string | null {
  let i = skipSpace(text, 0);
  if (text[i] !== "{") return null;
  const spans: [number, number][] = [];
  i = skipSpace(text, i + 1);
  while (i < text.length && text[i] !== "}") {
    if (text[i] !== '"') return null;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return null;
    }
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") return null;
    const start = skipSpace(text, i + 1);
    const end = skipValue(text, start);
    if (end < 0) return null;
    if (key === "id") spans.push([start, end]);
    i = skipSpace(text, end);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  if (spans.length === 0) return null;
  const json = JSON.stringify(id);
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + json;
    from = end;
  }
  out += text.slice(from);
  try {
    const parsed = JSON.parse(out) as { id?: unknown };
    return parsed.id === id ? out : null;
  } catch {
    return null;
  }
}
