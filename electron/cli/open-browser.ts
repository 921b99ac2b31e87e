import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Opens `target` (a file path or URL that holds no secret: it ends up on the opener's command
 * line, which `ps` shows to every user) with the desktop's default handler: xdg-open, open or
 * start. Never throws; reports failure through `onError`.
 */
export function openWithDesktop(target: string, onError: (message: string) => void): void {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [target]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', target]]
        : ["xdg-open", [target]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true, windowsHide: true });
    child.on("error", (err) => onError(`could not open a browser (${cmd}): ${err.message}`));
    child.unref();
  } catch (err) {
    onError(`could not open a browser (${cmd}): ${String(err)}`);
  }
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The local page that sends the browser on to `link`: a meta refresh, no script. */
export function redirectPage(link: string): string {
  const href = escapeHtml(link);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Opening ACP Retry Inspector</title>
</head>
<body>
<p>Opening <a href="${href}">the ACP Retry Inspector UI</a>…</p>
<p>This file holds the hub's access token; the hub deletes it shortly.</p>
</body>
</html>
`;
}

/**
 * Writes the redirect page for `link` as a new file, readable by this user only (0600, created
 * exclusively so an existing file or symlink is never reused), in `dir` (made 0700 if missing).
 */
export function writeRedirectFile(dir: string, link: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `open-${randomBytes(8).toString("hex")}.html`);
  writeFileSync(path, redirectPage(link), { mode: 0o600, flag: "wx" });
  return path;
}

/** How to open the UI link. */
export interface OpenUiOptions {
  /** A private per-user folder for the redirect file (the rendezvous folder). */
  readonly dir: string;
  /** How long the browser gets to read the file before it is deleted (default 30 s). */
  readonly lifetimeMs?: number;
  readonly onError: (message: string) => void;
  /** Opens a file path; the desktop's handler by default. */
  readonly open?: (path: string, onError: (message: string) => void) => void;
}

/**
 * Opens the UI link (its token in the fragment) in the user's browser without putting the token
 * on any command line: like Jupyter's `jpserver-*-open.html`, it writes a 0600 local page that
 * redirects to the link and opens that file's path. The file is deleted after `lifetimeMs`, at
 * `remove()` and at process exit, whichever comes first.
 */
export function openUiLink(link: string, options: OpenUiOptions): { remove(): void } {
  let path: string | undefined;
  try {
    path = writeRedirectFile(options.dir, link);
  } catch (err) {
    options.onError(`could not write the page that opens the UI: ${(err as Error).message}`);
    return { remove() {} };
  }
  const file = path;
  let timer: NodeJS.Timeout | undefined;
  const remove = () => {
    if (timer) clearTimeout(timer);
    process.off("exit", remove);
    rmSync(file, { force: true });
  };
  timer = setTimeout(remove, options.lifetimeMs ?? 30_000);
  timer.unref();
  process.on("exit", remove);
  (options.open ?? openWithDesktop)(file, options.onError);
  return { remove };
}
