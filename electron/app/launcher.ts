/**
 * What `npm start` runs after building: the desktop app on the built-in demo when the Electron
 * binary is installed; otherwise one line saying so, then the same UI served for a browser. It
 * never just fails because Electron is missing. Bundled to dist/app/launcher.cjs by build-app.mjs.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { findElectronBinary } from "./electron-binary.js";
import { createPlaceholderCore } from "./placeholder-core.js";
import { startStandInHub } from "./stand-in-serve.js";

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

/** True when the built CLI knows `command` (its `--help` exits 0; unknown commands exit 2). */
function cliKnows(cli: string, command: string): boolean {
  return (
    spawnSync(process.execPath, [cli, command, "--help"], { stdio: "ignore", timeout: 10_000 }).status === 0
  );
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
  if (cliKnows(cli, "serve")) {
    return runToExit(
      spawn(process.execPath, [cli, "serve", "--demo", ...options.args], { stdio: "inherit" }),
    );
  }
  return serveStandIn(options);
}

/** TEMPORARY until `serve --demo` exists: the stand-in server in this process, until Ctrl-C. */
async function serveStandIn(options: LaunchOptions): Promise<number> {
  const portArg = options.args.indexOf("--port");
  const port = portArg >= 0 ? Number(options.args[portArg + 1]) : 0;
  const core = createPlaceholderCore({
    label: "stand-in (serve --demo not built yet)",
    tool: "acp-retry-inspector",
  });
  const hub = await startStandInHub(
    join(options.distDir, "renderer"),
    core,
    Number.isInteger(port) ? port : 0,
  );
  options.log(`Open the inspector at ${hub.urlWithToken}`);
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and from npm's parent).
  await new Promise<void>((resolve) => {
    process.on("SIGINT", () => resolve());
    process.on("SIGTERM", () => resolve());
  });
  await hub.close();
  return 0;
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
