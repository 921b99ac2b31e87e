// Bundles the benchmark runner into .bench/ inside the project (packages stay external and resolve from node_modules).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildSchemaValidators } from "./build-schema-validators.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

// The benches import the schema check, whose validators are generated (git-ignored): make sure they exist.
buildSchemaValidators();
await build({
  absWorkingDir: root,
  entryPoints: { "run-benches": "electron/tools/bench/run-benches.ts" },
  outdir: join(root, ".bench"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
