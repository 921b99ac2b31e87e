// `npm start`: builds the CLI, the renderer and the app bundles, then runs the launcher, which opens
// the Electron app on the built-in demo or, without the Electron binary, serves the UI for a browser.
// Usage: node electron/tools/build/start.mjs [app args...]
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build as viteBuild } from "vite";
import { buildApp } from "./build-app.mjs";
import { buildCli } from "./build-cli.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const started = Date.now();
await buildCli();
await viteBuild({ configFile: join(root, "vite.config.ts"), logLevel: "warn" });
const { launcher } = await buildApp();
console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const child = spawn(process.execPath, [launcher, ...process.argv.slice(2)], { stdio: "inherit", cwd: root });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
