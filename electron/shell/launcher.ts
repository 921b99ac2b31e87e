/**
 * What `npm start` runs after building: the desktop app on the built-in demo when the Electron
 * binary is installed; otherwise one line saying so, then the same UI served for a browser. It
 * never just fails because Electron is missing: the fallback is `acp-retry-inspector serve`, which
 * prints the UI's link (its token in the fragment). Bundled to dist/app/launcher.cjs by build-app.mjs.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { findElectronBinary } from "./electron-binary.js";

/** Where the built files are and where to look for Electron. */
export interface LaunchOptions {
  /** The build output folder holding cli.js, app/ and renderer/. */
  readonly distDir: string;
  /** The project root whose node_modules/electron is checked. */
  readonly projectRoot: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Arguments passed through to the app (`--no-demo`, `--port N`, ...). */
  readonly args: readonly string[];
  readonly log: (line: string) => void;
}

/** Runs a child with inherited stdio until it exits, forwarding Ctrl-C and SIGTERM; resolves to its status. */
function runToExit(child: ChildProcess): Promise<number> {
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(code ?? (signal ? 128 + 2 : 1));
    });
  });
}

/** The help text of a built CLI command, or undefined when the CLI does not know it. */
function cliHelp(cli: string, command: string): string | undefined {
  const r = spawnSync(process.execPath, [cli, command, "--help"], { encoding: "utf8", timeout: 10_000 });
  return r.status === 0 ? r.stdout : undefined;
}

/**
 * The `serve` arguments for the browser fallback: `--demo` only when this CLI's `serve` has it;
 * an agent command after `--` (for the Conformance tab) passes through untouched, last.
 */
export function serveArgs(serveHelp: string, rendererDir: string, args: readonly string[]): string[] {
  const dashes = args.indexOf("--");
  const own = dashes < 0 ? args : args.slice(0, dashes);
  const agent = dashes < 0 ? [] : args.slice(dashes);
  const demo = /(^|\s)--demo\b/m.test(serveHelp) && !own.includes("--no-demo") ? ["--demo"] : [];
  const ui = own.includes("--ui-dir") ? [] : ["--ui-dir", rendererDir];
  return ["serve", ...demo, ...ui, ...own.filter((a) => a !== "--no-demo"), ...agent];
}

/** Starts the app in the best shell available here; resolves to the exit status. */
export async function launch(options: LaunchOptions): Promise<number> {
  const binary = findElectronBinary({ projectRoot: options.projectRoot, env: options.env });
  if (binary.available) {
    const main = join(options.distDir, "app", "main.cjs");
    return runToExit(spawn(binary.path, [main, ...options.args], { stdio: "inherit" }));
  }
  options.log(
    `acp-retry-inspector: no Electron app here (${binary.reason}); serving the same UI for a browser instead.`,
  );
  const cli = join(options.distDir, "cli.js");
  const help = cliHelp(cli, "serve");
  if (help === undefined) {
    options.log(`acp-retry-inspector: ${cli} has no serve command; run \`npm run build\` first.`);
    return 1;
  }
  const argv = serveArgs(help, join(options.distDir, "renderer"), options.args);
  return runToExit(spawn(process.execPath, [cli, ...argv], { stdio: "inherit" }));
}

if (typeof require !== "undefined" && require.main === module) {
  launch({
    distDir: join(__dirname, ".."),
    projectRoot: process.cwd(),
    env: process.env,
    args: process.argv.slice(2),
    log: (line) => process.stdout.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(
        `acp-retry-inspector: could not start: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
