/** The setup of two traces compared fact by fact (agent info, protocol version, capabilities, ...). */
import type { SetupDiff } from "./diff-model.js";
import type { SetupFacts } from "./setup-collector.js";

/** The facts in the order they are shown, and whether `--fail-on any-change` counts a change. */
const FACTS: readonly { readonly field: keyof SetupFacts; readonly gated: boolean }[] = [
  { field: "protocolVersion", gated: true },
  { field: "agentInfo", gated: true },
  { field: "agentCapabilities", gated: true },
  { field: "authMethods", gated: true },
  { field: "initializeError", gated: true },
  { field: "clientInfo", gated: true },
  { field: "clientCapabilities", gated: true },
  { field: "transport", gated: true },
  { field: "importedFormat", gated: true },
  // A new build is started by another command, and the recording tool may be upgraded: shown, never gated.
  { field: "agentCommand", gated: false },
  { field: "tool", gated: false },
];

/** Each setup fact of A beside B's. */
export function compareSetup(a: SetupFacts, b: SetupFacts): SetupDiff[] {
  return FACTS.map(({ field, gated }) => ({
    field,
    a: a[field],
    b: b[field],
    mark: a[field] === b[field] ? "same" : "changed",
    gated,
  }));
}
