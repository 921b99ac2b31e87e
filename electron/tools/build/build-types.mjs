// Writes the TypeScript declarations of the package's `lib` and `keys` entries (tsconfig.types.json):
// the .d.ts tree into dist/types, and dist/lib.d.ts and dist/keys.d.ts beside the bundles, which
// package.json's "exports" name as "types". Usage: node electron/tools/build/build-types.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The package entries with declarations: bundle name → its source entry, relative to the root. */
export const TYPED_ENTRIES = { lib: "electron/lib/index", keys: "shared/keys/index" };

/** Emits the declarations into `<root>/dist`; returns the entry declaration files written. */
export function buildTypes() {
  const dist = join(root, "dist");
  rmSync(join(dist, "types"), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.types.json")], {
    cwd: root,
    stdio: "inherit",
  });
  mkdirSync(dist, { recursive: true });
  return Object.entries(TYPED_ENTRIES).map(([name, source]) => {
    const file = join(dist, `${name}.d.ts`);
    writeFileSync(file, `export * from "./types/${source}.js";\n`);
    return file;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`built ${buildTypes().join(" and ")}`);
}
