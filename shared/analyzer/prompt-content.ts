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

/** Appends the canonical JSON of `value` to `parts` (joined once at the end: one flat string, no nested joins). */
function writeCanonical(value: unknown, parts: string[]): void {
  if (value === null || typeof value !== "object") {
    parts.push(JSON.stringify(value) ?? "undefined");
  } else if (Array.isArray(value)) {
    parts.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(",");
      writeCanonical(value[i], parts);
    }
    parts.push("]");
  } else {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    parts.push("{");
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      parts.push(i > 0 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
      writeCanonical(obj[k], parts);
    }
    parts.push("}");
  }
}
