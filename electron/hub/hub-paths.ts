import { homedir } from "node:os";
import { join } from "node:path";

/** Environment variable that overrides the rendezvous directory (tests, several users of one account). */
export const RUNTIME_DIR_ENV = "ACP_RETRY_INSPECTOR_RUNTIME_DIR";

/**
 * Where the rendezvous file lives: `$ACP_RETRY_INSPECTOR_RUNTIME_DIR`, else
 * `$XDG_RUNTIME_DIR/acp-retry-inspector`, else a per-user config directory.
 */
export function rendezvousDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[RUNTIME_DIR_ENV];
  if (override) return override;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, "acp-retry-inspector");
  return join(configHome(env), "acp-retry-inspector");
}

/** The rendezvous file of the running hub. */
export function rendezvousPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(rendezvousDir(env), "hub.json");
}

function configHome(env: NodeJS.ProcessEnv): string {
  if (process.platform === "win32") return env.APPDATA ?? join(homedir(), "AppData", "Roaming");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support");
  return env.XDG_CONFIG_HOME ?? join(homedir(), ".config");
}

/** Default folder for the traces the hub writes: `$XDG_STATE_HOME/acp-retry-inspector/traces` or the platform equivalent. */
export function defaultTracesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "linux" || env.XDG_STATE_HOME) {
    const state = env.XDG_STATE_HOME ?? join(homedir(), ".local", "state");
    return join(state, "acp-retry-inspector", "traces");
  }
  return join(configHome(env), "acp-retry-inspector", "traces");
}
