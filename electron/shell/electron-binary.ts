/**
 * Finds the Electron executable without `require("electron")`: the launcher package's index.js
 * starts a download when the binary is missing, which must never happen in tests, CI or `npm start`.
 * Mirrors the launcher's own lookup: `path.txt` names the executable inside `dist/`, and
 * `ELECTRON_OVERRIDE_DIST_PATH` replaces that `dist/` folder.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Where the Electron executable is, or one sentence saying why there is none. */
export type ElectronBinary =
  | { readonly available: true; readonly path: string }
  | { readonly available: false; readonly reason: string };

/** Where to look: the project root (holding `node_modules/electron`) and the environment. */
export interface ElectronBinaryLookup {
  readonly projectRoot: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Locates the Electron executable installed for `projectRoot`, never downloading anything. */
export function findElectronBinary({ projectRoot, env = {} }: ElectronBinaryLookup): ElectronBinary {
  const packageDir = join(projectRoot, "node_modules", "electron");
  if (!existsSync(join(packageDir, "package.json"))) {
    return { available: false, reason: "the electron package is not installed" };
  }
  const pathFile = join(packageDir, "path.txt");
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : undefined;
  if (!relative && !override) {
    return {
      available: false,
      reason: "the Electron binary was never downloaded: node_modules/electron/path.txt is missing",
    };
  }
  const path = override ? join(override, relative || "electron") : join(packageDir, "dist", relative ?? "");
  if (!existsSync(path) || !statSync(path).isFile()) {
    return { available: false, reason: `the Electron binary is missing at ${path}` };
  }
  return { available: true, path };
}
