/**
 * A saved page: one self-contained HTML file holding the app (its script and styles inlined) and
 * one trace, which opens in any browser from `file://` with no network access, no hub and no token
 * (`export TRACE --html`, and the app's "Export as page"). Its Content-Security-Policy allows only
 * the inlined script and styles, by their SHA-256: nothing is fetched, nothing connects anywhere.
 * The trace rides as JSON in a `<script type="application/json">` element, every `<` escaped, so
 * no text in it can close the element.
 */

/** The id of the element that carries the trace. */
export const SAVED_TRACE_ELEMENT_ID = "acp-saved-trace";

/** The app's built script and styles, as the saved-page build wrote them. */
export interface SavedPageApp {
  readonly script: string;
  readonly styles: string;
}

/** The trace a saved page shows. */
export interface SavedTrace {
  /** The file name it had (shown as the trace's name). */
  readonly name: string;
  /** The trace file's text (already redacted unless the user asked for the full trace). */
  readonly text: string;
  /** When the page was saved (ISO 8601). */
  readonly savedAt: string;
  /** `redacted` or `full`: what the page holds, said on screen. */
  readonly content: "redacted" | "full";
}

/** The base64 SHA-256 of a text's UTF-8 bytes (the shells have it: node:crypto, SubtleCrypto). */
export type Sha256Base64 = (text: string) => string | Promise<string>;

/** Text an inline `<script>` may hold: no script end tag can end it early and no HTML comment opener can change how it is parsed. */
function inlineScript(script: string): string {
  const safe = script.replace(/<\/(script)/gi, "<\\/$1");
  // Written `<!-{2}` so this module, which the app's own script includes, does not hold the sequence itself.
  if (/<!-{2}/.test(safe))
    throw new Error("the app's script holds an HTML comment opener, which an inline script cannot carry");
  return safe;
}

/** Text an inline `<style>` may hold. */
function inlineStyles(styles: string): string {
  if (/<\/style/i.test(styles))
    throw new Error("the app's styles hold '</style', which inline styles cannot carry");
  return styles;
}

/** `value` as JSON that an HTML element's text can hold: every `<`, `>` and `&` escaped. */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Text for an HTML element or attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The whole saved page for `trace`, with `app` inlined. */
export async function savedPageHtml(
  app: SavedPageApp,
  trace: SavedTrace,
  sha256: Sha256Base64,
): Promise<string> {
  const script = inlineScript(app.script);
  const styles = inlineStyles(app.styles);
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${await sha256(script)}'`,
    `style-src 'sha256-${await sha256(styles)}'`,
    "img-src data:",
    "font-src data:",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return [
    "<!doctype html>",
    '<html lang="en" data-theme="light">',
    "<head>",
    '<meta charset="utf-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${csp}" />`,
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="referrer" content="no-referrer" />',
    `<title>${escapeHtml(trace.name)} · ACP Retry Inspector</title>`,
    `<style>${styles}</style>`,
    "</head>",
    "<body>",
    '<div id="root"></div>',
    `<script type="application/json" id="${SAVED_TRACE_ELEMENT_ID}">${jsonForHtml(trace)}</script>`,
    `<script type="module">${script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** The trace a saved page carries (the JSON text of its element), or why it cannot be read. */
export function readSavedTrace(json: string): SavedTrace | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { problem: "the page's trace is not JSON" };
  }
  const v = value as Partial<Record<keyof SavedTrace, unknown>> | null;
  if (v === null || typeof v !== "object") return { problem: "the page's trace is not an object" };
  if (typeof v.name !== "string" || typeof v.text !== "string" || typeof v.savedAt !== "string")
    return { problem: "the page's trace lacks its name, text or time" };
  return {
    name: v.name,
    text: v.text,
    savedAt: v.savedAt,
    content: v.content === "full" ? "full" : "redacted",
  };
}
