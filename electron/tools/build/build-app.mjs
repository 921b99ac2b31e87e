// Bundles the Electron entry files with esbuild: main and the sandboxed preload, both CommonJS
// (a sandboxed preload cannot be an ES module), plus the `npm start` launcher.
// Usage: node electron/tools/build/build-app.mjs [OUTDIR]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Builds `main.cjs`, `preload.cjs` and `launcher.cjs` into `outdir` (default dist/app); returns their paths. */
export async function buildApp(outdir = join(root, "dist", "app")) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  await build({
    absWorkingDir: root,
    entryPoints: { main: "electron/shell/main.ts", preload: "electron/shell/preload.ts" },
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Everything is bundled so the packaged app needs only dist/; `electron` is provided at run time.
    external: ["electron"],
    sourcemap: "linked",
    define: { __TOOL_VERSION__: JSON.stringify(pkg.version) },
    logLevel: "warning",
  });
  // The `npm start` launcher: plain Node, everything (ws included) bundled so it runs from any dist/.
  await build({
    absWorkingDir: root,
    entryPoints: { launcher: "electron/shell/launcher.ts" },
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["electron", "bufferutil", "utf-8-validate"],
    logLevel: "warning",
  });
  return {
    main: join(outdir, "main.cjs"),
    preload: join(outdir, "preload.cjs"),
    launcher: join(outdir, "launcher.cjs"),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildApp(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`built ${out.main} and ${out.preload}`);
}
