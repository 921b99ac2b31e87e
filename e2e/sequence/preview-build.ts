/** Builds the SequenceView preview page (renderer/views/sequence/preview/) with Vite into a temp folder and serves it. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { serveStatic } from "../../electron/hub/static-files.js";
import { RENDERER_CSP } from "../../electron/shell/renderer-files.js";
import { projectRoot } from "../harness/build-once.js";

/** A served preview build. */
export interface SequencePreview {
  /** The page URL; add `?trace=<name>` for a trace other than `trace`. */
  readonly url: string;
  /** Puts a trace file next to the page as `<name>.jsonl`. */
  addTrace(name: string, jsonl: string): Promise<void>;
  close(): Promise<void>;
}

/** Builds the preview page and serves it on 127.0.0.1 with the renderer's CSP. */
export async function startSequencePreview(): Promise<SequencePreview> {
  const outDir = await mkdtemp(join(tmpdir(), "acp-sequence-preview-"));
  await build({
    configFile: false,
    root: join(projectRoot, "renderer", "views", "sequence", "preview"),
    base: "./",
    plugins: [react()],
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, assetsInlineLimit: 0, modulePreload: { polyfill: false } },
  });
  let server: Server | null = null;
  try {
    const served = await listenPreview(outDir);
    server = served.server;
    const s = server;
    return {
      url: served.url,
      addTrace: (name, jsonl) => writeFile(join(outDir, `${name}.jsonl`), jsonl),
      async close() {
        s.closeAllConnections();
        await new Promise<void>((ok) => s.close(() => ok()));
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(outDir, { recursive: true, force: true });
    throw err;
  }
}

/** Serves the preview folder on 127.0.0.1 with the hub's static-file code and the renderer's CSP. */
async function listenPreview(dir: string): Promise<{ server: Server; url: string }> {
  const headers = {
    "Content-Security-Policy": RENDERER_CSP,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    serveStatic(res, dir, path, headers).then(
      (served) => {
        if (!served) res.writeHead(404).end();
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}
