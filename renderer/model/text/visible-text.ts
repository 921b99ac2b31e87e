/**
 * Wire text as the UI shows it: characters that would change how a line reads without being seen
 * are shown as a visible marker instead, e.g. `⟦U+202E⟧`. A right-to-left override from a peer
 * would otherwise display the rest of a method name, prompt or key reversed; a C1 control or a
 * stray C0 control would vanish. Every place the renderer draws text from the wire (a trace,
 * a peer, an agent's stderr) passes it through `visibleText`; the bytes kept, copied and
 * exported stay as they came.
 */

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: finding control characters is the point
/**
 * C0 controls but tab and newline (layout in a `<pre>`), DEL, C1 controls, the Arabic letter mark,
 * the left-to-right and right-to-left marks, the bidirectional embeddings, overrides and isolates,
 * and the line and paragraph separators.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: finding control characters is the point

/** The marker shown for one such character: `⟦U+XXXX⟧`. */
export function controlMarker(c: string): string {
  return `⟦U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟧`;
}

/** `text` with every bidirectional control, C1 control and C0 control (but tab and newline) shown as `⟦U+XXXX⟧`. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, controlMarker);
}
