import { homedir } from "node:os";
import { join } from "node:path";
import { userDir } from "../platform/user-dirs.js";
import { ensurePrivateDir } from "./private-files.js";

/** Environment variable that overrides the folder default traces go to. */
export const TRACE_DIR_ENV = "ACP_RETRY_INSPECTOR_TRACE_DIR";

/**
 * The per-user folder for traces written without `--trace` (by the proxy and by the hub):
 * `$ACP_RETRY_INSPECTOR_TRACE_DIR`, else `<per-user state dir>/acp-retry-inspector/traces`
 * (`$XDG_STATE_HOME`, default `~/.local/state`, on Linux; see `userDir`).
 */
export function defaultTraceDir(
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
  home: string = homedir(),
): string {
  return env[TRACE_DIR_ENV] || join(userDir("state", env, platform, home), "traces");
}

/** A fresh trace file name: `<UTC timestamp>-<pid>.jsonl`, sortable by start time, e.g. `20260131T120501Z-4242.jsonl`. */
export function traceFileName(start: Date = new Date(), pid: number = process.pid): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${pid}.jsonl`;
}

/**
 * A path for a new trace in the per-user folder, which is made private first (created 0700, or
 * checked to be this user's own real folder and narrowed to 0700; see `ensurePrivateDir`). Throws
 * `PrivateFileError` when the folder cannot be used.
 */
export function newDefaultTracePath(
  start: Date = new Date(),
  env: Record<string, string | undefined> = process.env,
): string {
  const dir = defaultTraceDir(env);
  ensurePrivateDir(dir);
  return join(dir, traceFileName(start));
}
