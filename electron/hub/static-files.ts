import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

/** The Content-Security-Policy of every page the hub serves. */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page served when no UI build is configured: it says what this is and how to reach the API. */
export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>ACP Retry Inspector hub</title></head>
<body>
<h1>ACP Retry Inspector hub</h1>
<p>The hub is running. The timeline UI is not bundled in this build yet.</p>
<p>API: <code>GET /api/hub</code>, <code>GET /api/traces</code>, <code>GET|POST|DELETE /api/faults</code>,
WebSocket <code>/ws/ui</code>. See docs/hub.md.</p>
</body>
</html>
`;

/**
 * Resolves a URL path inside `root`, or undefined when it would escape it. `/` and folder paths
 * map to `index.html`.
 */
export function staticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0")) return undefined;
  const base = resolve(root);
  const full = resolve(join(base, normalize(decoded)));
  if (full !== base && !full.startsWith(base + sep)) return undefined;
  return decoded.endsWith("/") ? join(full, "index.html") : full;
}

/** Serves a file from the UI folder (or the placeholder for `/`); false when there is nothing to serve. */
export async function serveStatic(
  res: ServerResponse,
  root: string | undefined,
  urlPath: string,
  headers: Record<string, string>,
): Promise<boolean> {
  const path = root ? staticPath(root, urlPath) : undefined;
  if (path) {
    const s = await stat(path).catch(() => undefined);
    if (s?.isFile()) {
      res.writeHead(200, {
        ...headers,
        "Content-Type": TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
        "Content-Length": String(s.size),
      });
      createReadStream(path).pipe(res);
      return true;
    }
  }
  if (urlPath === "/" || urlPath === "/index.html") {
    res.writeHead(200, { ...headers, "Content-Type": TYPES[".html"] as string });
    res.end(PLACEHOLDER_HTML);
    return true;
  }
  return false;
}
