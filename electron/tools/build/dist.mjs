// `npm run dist`: packages the desktop app with electron-builder from the Electron binary installed
// here. Without that binary it stops at once, before building, with one line saying what is missing
// and how to provide it (electron-builder would otherwise try a download and fail with a stack).
// The binary is found as the launcher finds it (electron/shell/electron-binary.ts), never with
// require("electron"), whose index.js starts a download. Usage: npm run dist [-- electron-builder args]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** electron-builder's platform flags, by the Node platform they build for. */
const PLATFORM_FLAGS = {
  darwin: ["--mac", "-m", "--macos", "-o"],
  win32: ["--win", "-w", "--windows"],
  linux: ["--linux", "-l"],
};

/** The platforms' names for people. */
const PLATFORM_NAMES = { darwin: "macOS", win32: "Windows", linux: "Linux" };

/**
 * What `npm run dist` will do, or the one line saying why it cannot: `find` is findElectronBinary
 * (passed in, as this script is plain JavaScript); `args` go to electron-builder after our config.
 */
export function distPlan({ projectRoot, env, args, platform, find }) {
  const other = Object.entries(PLATFORM_FLAGS).find(
    ([name, flags]) => name !== platform && args.some((a) => flags.includes(a)),
  );
  if (other)
    return {
      ok: false,
      message: `npm run dist: it packages for this machine (${PLATFORM_NAMES[platform] ?? platform}) from the Electron binary installed here; run it on a ${PLATFORM_NAMES[other[0]]} machine to package for ${PLATFORM_NAMES[other[0]]}`,
    };
  const binary = find({ projectRoot, env });
  if (!binary.available) {
    const version = JSON.parse(
      readFileSync(join(projectRoot, "node_modules/electron/package.json"), "utf8"),
    ).version;
    return {
      ok: false,
      message: `npm run dist: the Electron binary is missing (${binary.reason}); run "npm ci" on a machine that can download it, or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding Electron ${version} unpacked for ${PLATFORM_NAMES[platform] ?? platform}`,
    };
  }
  // electron-builder copies this folder instead of downloading Electron again.
  const electronDist =
    env.ELECTRON_OVERRIDE_DIST_PATH || join(projectRoot, "node_modules", "electron", "dist");
  return {
    ok: true,
    electronDist,
    builderArgs: ["--config", "electron-builder.yml", `-c.electronDist=${electronDist}`, ...args],
  };
}

/** findElectronBinary, compiled from its TypeScript source in memory (this script runs on plain Node). */
async function loadFindElectronBinary() {
  const { build } = await import("esbuild");
  const out = await build({
    absWorkingDir: root,
    entryPoints: ["electron/shell/electron-binary.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  const source = out.outputFiles[0].text;
  const module = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
  return module.findElectronBinary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const plan = distPlan({
    projectRoot: root,
    env: process.env,
    args: process.argv.slice(2),
    platform: process.platform,
    find: await loadFindElectronBinary(),
  });
  if (!plan.ok) {
    console.error(plan.message);
    process.exit(1);
  }
  const { buildCli } = await import("./build-cli.mjs");
  const { buildApp } = await import("./build-app.mjs");
  const { build: viteBuild } = await import("vite");
  await buildCli();
  await viteBuild({ configFile: join(root, "vite.config.ts"), logLevel: "warn" });
  await buildApp();
  const cli = createRequire(import.meta.url).resolve("electron-builder/cli.js");
  const child = spawn(process.execPath, [cli, ...plan.builderArgs], { stdio: "inherit", cwd: root });
  child.on("exit", (code) => process.exit(code ?? 1));
}
