/**
 * The one place the test suites (vitest's and Playwright's global setup) point every per-user
 * folder of this tool at a private temporary root: data (stores), state (traces), config (agents
 * file, rendezvous fallback) and runtime (the hub's rendezvous file). Every process a test starts
 * inherits them, so no test finds, writes to or attaches to a hub, trace or store of the user's,
 * even while the user has the app open.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOKEN_ENV } from "../../hub-client/hub-client.js";
import { RUNTIME_DIR_ENV } from "../../hub-client/hub-paths.js";
import { FRONT_TOKEN_ENV } from "../../platform/front-token.js";
import { TRACE_DIR_ENV } from "../../trace/default-trace-path.js";

/** The environment variables that decide this tool's per-user folders. */
export const USER_DIR_VARIABLES = [
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CONFIG_HOME",
  "XDG_RUNTIME_DIR",
  RUNTIME_DIR_ENV,
] as const;

/** Points this process's per-user folders (and so every child's) at a new private root; returns a cleanup. */
export function isolateUserDirs(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), "acp-ri-suite-home-"));
  const dirs: Record<(typeof USER_DIR_VARIABLES)[number], string> = {
    XDG_DATA_HOME: join(root, "data"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_RUNTIME_DIR: join(root, "runtime"),
    [RUNTIME_DIR_ENV]: join(root, "runtime", "acp-retry-inspector"),
  };
  for (const [name, dir] of Object.entries(dirs)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    env[name] = dir;
  }
  env.ACP_RI_SUITE_HOME = root;
  // The CLI's token for a hub (see hub-client.ts): the user's own must never reach the suite's calls.
  delete env[TOKEN_ENV];
  // Nor the user's traces folder (it would win over XDG_STATE_HOME), nor a token for `proxy --listen`.
  delete env[TRACE_DIR_ENV];
  delete env[FRONT_TOKEN_ENV];
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
