/**
 * Another local web server on 127.0.0.1 (a dev server, say) that the same browser visits: it
 * records every request and upgrade it receives, headers included, so a test can prove no
 * credential of the hub's ever reaches it.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";

/** One request the bystander received. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** A running bystander server. */
export interface Bystander {
  readonly port: number;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every request and upgrade so far, in order. */
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Some dev server</title>
<link rel="stylesheet" href="/style.css"></head><body><h1>Some dev server</h1><img src="/logo.png" alt=""></body></html>`;

/** Starts a bystander on a free port of 127.0.0.1. */
export async function startBystander(): Promise<Bystander> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    if (req.url === "/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else {
      res.writeHead(204);
      res.end();
    }
  });
  server.on("upgrade", (req, socket) => {
    seen.push({ method: "UPGRADE", url: req.url ?? "", headers: req.headers });
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
