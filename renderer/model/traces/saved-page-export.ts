/**
 * "Export as page" in the app: the shown trace (redacted unless Full trace is on) inside one
 * self-contained HTML file, the same page `export --html` writes (shared/trace/saved-page.ts). The
 * app's one-file build is fetched from beside the page (`saved-page/app.js`, `app.css`).
 */
import { savedPageHtml } from "../../../shared/trace/saved-page.js";
import type { TraceExport } from "./trace-export.js";

/** The base64 SHA-256 of `text`'s UTF-8 bytes. */
async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok)
    throw new Error(`the page build is missing (${url}: HTTP ${res.status}); build it with npm run build`);
  return res.text();
}

/** The page for an export made by `exportTrace`: its file name (`.html`) and text. */
export async function savedPageExport(out: TraceExport, full: boolean): Promise<TraceExport> {
  const [script, styles] = await Promise.all([
    fetchText("./saved-page/app.js"),
    fetchText("./saved-page/app.css"),
  ]);
  const text = await savedPageHtml(
    { script, styles },
    {
      name: out.fileName,
      text: out.text,
      savedAt: new Date().toISOString(),
      content: full ? "full" : "redacted",
    },
    sha256Base64,
  );
  return { fileName: out.fileName.replace(/\.jsonl$/, ".html"), text };
}
