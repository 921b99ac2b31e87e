/** Prompt content helpers: a short preview for display and a canonical form for comparing prompts. */
import { PROMPT_PREVIEW_CHARS } from "../protocol/decisions.js";

/** The text of a prompt's content blocks, non-text blocks as `[type]`, shortened to a preview. */
export function promptPreview(prompt: unknown): string {
  if (!Array.isArray(prompt)) return "";
  let out = "";
  for (const block of prompt) {
    if (out.length >= PROMPT_PREVIEW_CHARS) break;
    const b = block as { type?: unknown; text?: unknown } | null;
    const piece =
      b && typeof b.text === "string" ? b.text : `[${b && typeof b.type === "string" ? b.type : "?"}]`;
    out = out.length === 0 ? piece : `${out} ${piece}`;
  }
  out = out.replace(/\s+/g, " ");
  // join makes one flat string: a template literal would keep a slice of the whole prompt text alive.
  return out.length > PROMPT_PREVIEW_CHARS ? [out.slice(0, PROMPT_PREVIEW_CHARS - 1), "…"].join("") : out;
}

/** JSON with object keys sorted at every depth, so two prompts compare equal whatever their key order. */
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
    if (item === null || typeof item !== "object") parts.push(JSON.stringify(item) ?? "undefined");
    else if (Array.isArray(item)) {
      parts.push("[");
      stack.push({ value: item, keys: null, next: 0 });
    } else {
      const obj = item as Record<string, unknown>;
      parts.push("{");
      stack.push({ value: obj, keys: Object.keys(obj).sort(), next: 0 });
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
