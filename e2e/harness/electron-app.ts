/** Finds the Electron binary for the `electron` e2e project without `require("electron")`. */
import { type ElectronBinary, findElectronBinary } from "../../electron/shell/electron-binary.js";
import { projectRoot } from "./build-once.js";

/** The Electron binary of this checkout, or why there is none. */
export function electronBinary(): ElectronBinary {
  return findElectronBinary({ projectRoot, env: process.env });
}
