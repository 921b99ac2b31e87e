/** Serves a folder over HTTP on 127.0.0.1 with the renderer's CSP, the way the hub serves the built renderer. */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, resolve, sep } from "node:path";
import { RENDERER_CSP } from "./renderer-files.js";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".map": "application/json",
};

/** A request handler serving files below `dir`, index.html for `/`, 404 for anything else. */
export function staticFiles(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const root = resolve(dir);
  return (req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = resolve(root, `.${path === "/" ? "/index.html" : path}`);
    if (!file.startsWith(root + sep)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, {
            "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
            "Content-Security-Policy": RENDERER_CSP,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
          })
          .end(body),
      () => res.writeHead(404).end(),
    );
  };
}

/** Starts an HTTP server on 127.0.0.1 (port 0: an ephemeral one); returns it and its base URL. */
export async function listenLoopback(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok());
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${address.port}/` };
}
