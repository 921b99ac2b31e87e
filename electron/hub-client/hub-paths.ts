import { join } from "node:path";
import { userDir } from "../platform/user-dirs.js";
import { defaultTraceDir } from "../trace/default-trace-path.js";

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
  return userDir("config", env);
}

/** The rendezvous file of the running hub. */
export function rendezvousPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(rendezvousDir(env), "hub.json");
}

/** Default folder for the traces the hub writes: the same folder the proxy writes its own traces to. */
export const defaultTracesDir = (env: NodeJS.ProcessEnv = process.env): string => defaultTraceDir(env);
