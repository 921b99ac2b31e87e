import { homedir } from "node:os";
import { join } from "node:path";

/** Which per-user folder: data (stores), state (traces), config (rendezvous fallback). */
export type UserDirKind = "data" | "state" | "config";

/**
 * This tool's per-user folder of one kind, `<base>/acp-retry-inspector`: on Linux the XDG base
 * directories (`XDG_DATA_HOME`, `XDG_STATE_HOME`, `XDG_CONFIG_HOME` with their defaults), on macOS
 * `~/Library/Application Support`, on Windows `%LOCALAPPDATA%` (`%APPDATA%` for config).
 */
export function userDir(
  kind: UserDirKind,
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
  home: string = homedir(),
): string {
  return join(userBase(kind, env, platform, home), "acp-retry-inspector");
}

function userBase(
  kind: UserDirKind,
  env: Record<string, string | undefined>,
  platform: string,
  home: string,
) {
  if (platform === "win32") {
    if (kind === "config") return env.APPDATA || join(home, "AppData", "Roaming");
    return env.LOCALAPPDATA || join(home, "AppData", "Local");
  }
  if (platform === "darwin") return join(home, "Library", "Application Support");
  if (kind === "data") return env.XDG_DATA_HOME || join(home, ".local", "share");
  if (kind === "state") return env.XDG_STATE_HOME || join(home, ".local", "state");
  return env.XDG_CONFIG_HOME || join(home, ".config");
}
