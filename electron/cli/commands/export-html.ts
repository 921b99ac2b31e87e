/**
 * `export --html`: the saved page's parts on disk (the app built as one script and one style sheet,
 * beside the CLI bundle: `dist/cli.js` -> `dist/renderer/saved-page/`) and the page itself.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SavedPageApp, type SavedTrace, savedPageHtml } from "../../../shared/trace/saved-page.js";
import { CliError } from "../command.js";

/** Where the saved-page build is, beside this CLI bundle. */
export function savedPageDir(moduleUrl = import.meta.url): string {
  return join(dirname(fileURLToPath(moduleUrl)), "renderer", "saved-page");
}

/** The app's script and styles for a saved page; a usage error naming the missing build. */
export function readSavedPageApp(dir = savedPageDir()): SavedPageApp {
  const script = join(dir, "app.js");
  const styles = join(dir, "app.css");
  if (!existsSync(script) || !existsSync(styles))
    throw new CliError(
      `export --html: the page build is missing (${script}); build it with \`npm run build\` (node electron/tools/build/build-saved-page.mjs)`,
      1,
    );
  return { script: readFileSync(script, "utf8"), styles: readFileSync(styles, "utf8") };
}

/** The base64 SHA-256 of `text`'s UTF-8 bytes, for the page's Content-Security-Policy. */
function sha256Base64(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}

/** The saved page of `trace` with the app inlined. */
export function savedPage(app: SavedPageApp, trace: SavedTrace): Promise<string> {
  return savedPageHtml(app, trace, sha256Base64);
}
