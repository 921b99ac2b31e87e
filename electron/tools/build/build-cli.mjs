// Bundles the Node side (CLI and library entry points) with esbuild. Usage: node electron/tools/build/build-cli.mjs [OUTDIR]
import { copyFileSync, existsSync, readFileSync, symlinkSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildSchemaValidators, projectRoot as validatorsRoot } from "./build-schema-validators.mjs";

const root = validatorsRoot;

/** Leaves the generated schema validators out of a bundle: it imports the copy beside it. */
const sharedValidators = {
  name: "shared-schema-validators",
  setup(b) {
    b.onResolve({ filter: /[\\/]generated[\\/]acp-validators\.js$/ }, () => ({
      path: "./acp-validators.js",
      external: true,
    }));
  },
};

/** The project root folder (where package.json is). */
export const projectRoot = root;

/** Builds `cli.js` (and the library entries, the OTLP worker and the MCP server) into `outdir`; returns the path of the CLI. */
export async function buildCli(outdir = join(root, "dist")) {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  // the schema check's validators are ajv standalone code generated from the SDK's schemas: one copy
  // beside the bundles (dist/acp-validators.js), imported by cli.js and mcp.js rather than inlined in each
  const validators = buildSchemaValidators();
  await build({
    absWorkingDir: root,
    entryPoints: {
      cli: "electron/cli/main.ts",
      lib: "electron/lib/index.ts",
      keys: "shared/keys/index.ts",
      // The `--otlp` export's worker thread, loaded by path beside cli.js (electron/otel/worker-export.ts).
      "otlp-worker": "electron/otel/export-worker.ts",
    },
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    define: { __TOOL_VERSION__: JSON.stringify(pkg.version) },
    plugins: [sharedValidators],
    logLevel: "warning",
  });
  // The MCP server (`acp-retry-inspector mcp`) on its own, with the MCP SDK bundled in: the SDK is a
  // devDependency, so installing the package does not pull its HTTP servers, and the other commands
  // never load it. Only the package's runtime dependencies stay external.
  await build({
    absWorkingDir: root,
    entryPoints: { mcp: "electron/mcp/mcp-main.ts" },
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // ajv is bundled too: the MCP SDK require()s it from CommonJS, which an ESM bundle cannot do of an external.
    external: Object.keys(pkg.dependencies ?? {}).filter((name) => name !== "ajv"),
    sourcemap: "linked",
    define: { __TOOL_VERSION__: JSON.stringify(pkg.version) },
    plugins: [sharedValidators],
    logLevel: "warning",
  });
  copyFileSync(validators, join(outdir, "acp-validators.js"));
  linkNodeModules(outdir);
  return join(outdir, "cli.js");
}

// Packages stay external, so a bundle built outside the project (the tests build into a temp
// folder) needs a node_modules beside it to resolve them at run time: link the project's.
function linkNodeModules(outdir) {
  const rel = relative(root, resolve(outdir));
  const inside = rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  const link = join(outdir, "node_modules");
  if (inside || existsSync(link)) return;
  symlinkSync(join(root, "node_modules"), link, process.platform === "win32" ? "junction" : "dir");
}

// Only when run as `node electron/tools/build/build-cli.mjs`, not when a bundle (the bench runner) inlines this file.
if (
  process.argv[1] &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  basename(process.argv[1]) === "build-cli.mjs"
) {
  const out = await buildCli(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`built ${out}`);
}
