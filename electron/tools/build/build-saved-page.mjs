// Builds the app once more as one script and one style sheet (dist/renderer/saved-page/app.js and
// app.css): what `export --html` and the app's "Export as page" inline into a self-contained HTML
// file (shared/trace/saved-page.ts). Same entry and code as the served app; no chunks, no asset
// files (small assets become data: URLs), no source maps. Run after `vite build` (which empties
// dist/renderer). Usage: node electron/tools/build/build-saved-page.mjs [OUTDIR]
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build } from "vite";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Builds `app.js` and `app.css` into `outdir` (default dist/renderer/saved-page). */
export async function buildSavedPage(outdir = join(root, "dist", "renderer", "saved-page")) {
  await build({
    configFile: false,
    root: join(root, "renderer"),
    base: "./",
    publicDir: false,
    plugins: [react()],
    logLevel: "warn",
    build: {
      outDir: outdir,
      emptyOutDir: true,
      sourcemap: false,
      cssCodeSplit: false,
      assetsInlineLimit: 1024 * 1024,
      modulePreload: false,
      // One file by design (it is inlined into the page).
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        input: join(root, "renderer", "main.tsx"),
        output: {
          format: "es",
          codeSplitting: false,
          entryFileNames: "app.js",
          assetFileNames: (asset) =>
            asset.names?.some((n) => n.endsWith(".css")) ? "app.css" : "[name][extname]",
        },
      },
    },
  });
  return outdir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildSavedPage(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
