/** The per-user data folder the demo peers use when no path is given. */

import { join } from "node:path";
import { userDir } from "../platform/user-dirs.js";

/** `<per-user data dir>/acp-retry-inspector/<what>` (see `userDir`). */
export function defaultDataDir(what: string, env = process.env, platform = process.platform): string {
  return join(userDir("data", env, platform), what);
}
