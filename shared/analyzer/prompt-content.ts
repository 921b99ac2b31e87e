/** Prompt content helpers: a short preview for display and a canonical form for comparing prompts. */
import { PROMPT_PREVIEW_CHARS } from "../protocol/analyzer-choices.js";

/** How many characters of the prompt's text are collapsed at a time while a preview is being filled. */
const PREVIEW_STEP_CHARS = 4 * PROMPT_PREVIEW_CHARS;
/** Whitespace that `\s+ → " "` would change: a run of two or more, or one that is not a plain space. */
const COLLAPSIBLE = /\s\s|[^\S ]/;

/** The text of a prompt's content blocks, non-text blocks as `[type]`, shortened to a preview. */
export function promptPreview(prompt: unknown): string {
  if (!Array.isArray(prompt)) return "";
  // The blocks' text joined by spaces, taken up to the block that reaches the preview's length.
  const pieces: string[] = [];
  let rawLength = 0;
  for (const block of prompt) {
    if (rawLength >= PROMPT_PREVIEW_CHARS) break;
    const b = block as { type?: unknown; text?: unknown } | null;
    const piece =
      b && typeof b.text === "string" ? b.text : `[${b && typeof b.type === "string" ? b.type : "?"}]`;
    // A space between blocks, none after empty text at the start.
    if (rawLength > 0) {
      pieces.push(" ");
      rawLength++;
    }
    pieces.push(piece);
    rawLength += piece.length;
  }
  // Whitespace runs collapsed a step at a time, stopping once the preview is full: a collapsed prefix is
  // a prefix of the collapsed whole, so a 100 MB text costs a few hundred characters, not a 100 MB copy
  // and a regex pass over it (issue 31).
  let out = "";
  for (const piece of pieces) {
    for (let at = 0; at < piece.length && out.length <= PROMPT_PREVIEW_CHARS; at += PREVIEW_STEP_CHARS) {
      const joined =
        at === 0 && piece.length <= PREVIEW_STEP_CHARS
          ? out + piece
          : out + piece.slice(at, at + PREVIEW_STEP_CHARS);
      // Most text has only single spaces: then the collapse changes nothing, and a test is far cheaper than a replace.
      out = COLLAPSIBLE.test(joined) ? joined.replace(/\s+/g, " ") : joined;
    }
    if (out.length > PROMPT_PREVIEW_CHARS) break;
  }
  // join makes one flat string: a template literal would keep a slice of the whole prompt text alive.
  return out.length > PROMPT_PREVIEW_CHARS ? [out.slice(0, PROMPT_PREVIEW_CHARS - 1), "…"].join("") : out;
}

/** JSON with object keys sorted at every depth (one writer for the analyzer and the key ledger). */
/** A digest equal for two prompts exactly when their canonical JSON is (a long one hashed as it is written). */
export { canonicalDigest, canonicalJson } from "../protocol/canonical-json.js";
