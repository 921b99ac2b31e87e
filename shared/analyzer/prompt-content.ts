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
  return out.length > PROMPT_PREVIEW_CHARS ? `${out.slice(0, PROMPT_PREVIEW_CHARS - 1)}…` : out;
}

/** JSON with object keys sorted at every depth, so two prompts compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}
