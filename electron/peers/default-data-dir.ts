/** The per-user data folder the demo peers use when no path is given. */

import { homedir } from "node:os";
import { join } from "node:path";

/** `<per-user data dir>/acp-retry-inspector/<what>`: XDG_DATA_HOME on Linux, Application Support on macOS, LOCALAPPDATA on Windows. */
export function defaultDataDir(what: string, env = process.env, platform = process.platform): string {
  let base: string;
  if (platform === "win32") base = env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local");
  else if (platform === "darwin") base = join(homedir(), "Library", "Application Support");
  else base = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(base, "acp-retry-inspector", what);
}
