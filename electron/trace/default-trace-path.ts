import { homedir } from "node:os";
import { join } from "node:path";

/** Environment variable that overrides the folder default traces go to. */
export const TRACE_DIR_ENV = "ACP_RETRY_INSPECTOR_TRACE_DIR";

/**
 * The per-user folder for traces written without `--trace`: `$ACP_RETRY_INSPECTOR_TRACE_DIR`, else
 * `$XDG_STATE_HOME/acp-retry-inspector/traces` (default `~/.local/state/...`) on Linux,
 * `~/Library/Application Support/acp-retry-inspector/traces` on macOS and
 * `%LOCALAPPDATA%\acp-retry-inspector\traces` on Windows.
 */
export function defaultTraceDir(
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
  home: string = homedir(),
): string {
  const override = env[TRACE_DIR_ENV];
  if (override) return override;
  if (platform === "win32") {
    return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "acp-retry-inspector", "traces");
  }
  if (platform === "darwin") {
    return join(home, "Library", "Application Support", "acp-retry-inspector", "traces");
  }
  return join(env.XDG_STATE_HOME || join(home, ".local", "state"), "acp-retry-inspector", "traces");
}

/** A fresh trace file name: `<UTC timestamp>-<pid>.jsonl`, sortable by start time, e.g. `20260131T120501Z-4242.jsonl`. */
export function traceFileName(start: Date = new Date(), pid: number = process.pid): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${pid}.jsonl`;
}
