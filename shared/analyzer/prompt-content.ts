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

/** JSON with object keys sorted at every depth (one writer for the analyzer and the key ledger). */
export { canonicalJson } from "../protocol/canonical-json.js";
