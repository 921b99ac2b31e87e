/**
 * Maps requests for the renderer's origin (`app://inspector/...` in Electron) to files of the
 * built renderer, refusing anything outside its folder, and says which headers to send with them.
 */
import { extname, resolve, sep } from "node:path";

/**
 * The Content-Security-Policy of the app window's pages. The window reaches the hub only through
 * IPC (the preload), so it may connect to its own origin and nothing else: no port of 127.0.0.1,
 * not even the hub's. index.html's meta tag, shared with the browser UI, is looser (it cannot know
 * the hub's port); both policies apply, so the stricter one wins.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
};

/** The file to serve for `requestUrl`, or undefined when it is outside `rootDir` or not a renderer URL. */
export function resolveRendererFile(rootDir: string, requestUrl: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (`${url.protocol}//${url.host}` !== origin) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes("\0")) return undefined;
  const root = resolve(rootDir);
  const file = resolve(root, `.${pathname === "/" ? "/index.html" : pathname}`);
  return file.startsWith(root + sep) ? file : undefined;
}

/** Response headers for a renderer file: its content type, the CSP, and no sniffing. */
export function rendererHeaders(file: string): Record<string, string> {
  return {
    "Content-Type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
    "Content-Security-Policy": RENDERER_CSP,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}
