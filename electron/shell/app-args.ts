/**
 * The desktop app's own arguments (after Electron's): `--no-demo`, `--agents FILE` and
 * `-- <agent command...>`, the agent the Conformance tab offers besides the built-in demo agent and
 * the local agents file. Unknown options are left to Electron and Chromium.
 */

/** What the app was asked to run. */
export interface AppArgs {
  readonly demo: boolean;
  readonly conformance: { readonly agentsFile?: string; readonly argvCommand?: readonly string[] };
}

/** Reads the app's arguments; never throws (a desktop app has no terminal to complain to). */
export function parseAppArgs(args: readonly string[]): AppArgs {
  const dashes = args.indexOf("--");
  const own = dashes < 0 ? args : args.slice(0, dashes);
  const argvCommand = dashes < 0 ? [] : args.slice(dashes + 1);
  const agentsAt = own.indexOf("--agents");
  const agentsFile = agentsAt >= 0 ? own[agentsAt + 1] : undefined;
  return {
    demo: !own.includes("--no-demo"),
    conformance: {
      ...(agentsFile !== undefined && { agentsFile }),
      ...(argvCommand.length > 0 && { argvCommand }),
    },
  };
}
