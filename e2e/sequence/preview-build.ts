/** Builds the SequenceView preview page (renderer/sequence/preview/) with Vite into a temp folder and serves it. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { listenLoopback, staticFiles } from "../../electron/app/static-files.js";
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
    root: join(projectRoot, "renderer", "sequence", "preview"),
    base: "./",
    plugins: [react()],
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, assetsInlineLimit: 0, modulePreload: { polyfill: false } },
  });
  let server: Server | null = null;
  try {
    const served = await listenLoopback(staticFiles(outDir));
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
