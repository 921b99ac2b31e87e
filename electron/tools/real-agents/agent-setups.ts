/**
 * The real agents the `real-agents` bench runs, as installed with npm into a folder outside the
 * project (`ACP_RI_REAL_AGENTS`, e.g. /work/peers): `@zed-industries/claude-agent-acp` (it drives the
 * Claude Agent SDK's Claude Code) and `@zed-industries/codex-acp` (a native binary package). Each
 * gets a private HOME and XDG folders and is pointed at the fake model API on loopback: claude with
 * ANTHROPIC_BASE_URL and a dummy key, codex with a config.toml in a private CODEX_HOME whose
 * `model_provider` has the fake API as `base_url`.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One real agent: how to start it, and the environment that points it at the fake API. */
export interface RealAgent {
  readonly name: "claude-agent-acp" | "codex-acp";
  /** The npm package and its installed version. */
  readonly pkg: string;
  readonly version: string;
  readonly command: readonly string[];
  /** Builds the agent's environment in `home` (a fresh folder) for the fake API at `apiUrl`. */
  env(home: string, apiUrl: string): NodeJS.ProcessEnv;
}

function versionOf(peers: string, pkg: string): string | undefined {
  try {
    const doc = JSON.parse(readFileSync(join(peers, "node_modules", pkg, "package.json"), "utf8")) as {
      version?: unknown;
    };
    return typeof doc.version === "string" ? doc.version : undefined;
  } catch {
    return undefined;
  }
}

/** A private HOME with XDG folders inside it; only PATH and the locale are kept from `base`. */
function privateHome(home: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const xdg = {
    XDG_CONFIG_HOME: "config",
    XDG_DATA_HOME: "data",
    XDG_CACHE_HOME: "cache",
    XDG_STATE_HOME: "state",
  };
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: base.PATH ?? "/usr/bin:/bin",
    LANG: base.LANG ?? "C.UTF-8",
  };
  for (const [name, sub] of Object.entries(xdg)) {
    env[name] = join(home, sub);
    mkdirSync(join(home, sub), { recursive: true });
  }
  return env;
}

/** The agents installed under `peers` (node_modules of an `npm install` there); missing ones are named in `missing`. */
export function installedAgents(
  peers: string,
  base: NodeJS.ProcessEnv = process.env,
): { agents: RealAgent[]; missing: string[] } {
  const agents: RealAgent[] = [];
  const missing: string[] = [];
  const claudePkg = "@zed-industries/claude-agent-acp";
  const claudeMain = join(peers, "node_modules", claudePkg, "dist", "index.js");
  const claudeVersion = versionOf(peers, claudePkg);
  if (claudeVersion && existsSync(claudeMain))
    agents.push({
      name: "claude-agent-acp",
      pkg: claudePkg,
      version: claudeVersion,
      command: [process.execPath, claudeMain],
      env: (home, apiUrl) => ({
        ...privateHome(home, base),
        ANTHROPIC_BASE_URL: apiUrl,
        ANTHROPIC_API_KEY: "sk-ant-fake-model-api-dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        // As root, Claude Code refuses the permission mode the adapter asks for unless it is told it
        // runs in a sandbox: session/new then fails with "Query closed before response received".
        IS_SANDBOX: "1",
      }),
    });
  else missing.push(`${claudePkg} (no ${claudeMain})`);
  const codexPkg = "@zed-industries/codex-acp";
  const codexBin = join(peers, "node_modules", ".bin", "codex-acp");
  const codexVersion = versionOf(peers, codexPkg);
  if (codexVersion && existsSync(codexBin))
    agents.push({
      name: "codex-acp",
      pkg: codexPkg,
      version: codexVersion,
      command: [codexBin],
      env: (home, apiUrl) => {
        const codexHome = join(home, "codex");
        mkdirSync(codexHome, { recursive: true });
        writeFileSync(
          join(codexHome, "config.toml"),
          [
            'model = "fake-model"',
            'model_provider = "fake"',
            'approval_policy = "never"',
            'sandbox_mode = "read-only"',
            "[model_providers.fake]",
            'name = "fake model API on loopback"',
            `base_url = ${JSON.stringify(`${apiUrl}/v1`)}`,
            'wire_api = "responses"',
            'env_key = "FAKE_MODEL_API_KEY"',
            "",
          ].join("\n"),
        );
        return {
          ...privateHome(home, base),
          CODEX_HOME: codexHome,
          FAKE_MODEL_API_KEY: "fake-model-api-dummy",
        };
      },
    });
  else missing.push(`${codexPkg} (no ${codexBin})`);
  return { agents, missing };
}
