/**
 * The bridge of a saved page (`export --html`): no hub behind it. The page shows the one trace it
 * carries; every operation (faults, the demo, conformance, another tap's trace) fails with words
 * that say why and where it works.
 */
import { operationFunctions } from "../../../shared/ops/operations.js";
import { readSavedTrace, SAVED_TRACE_ELEMENT_ID, type SavedTrace } from "../../../shared/trace/saved-page.js";
import type { InspectorBridge } from "./inspector-bridge.js";

/** The trace this document carries, when it is a saved page; a problem when its trace is unreadable. */
export function savedTraceOf(doc: Document): SavedTrace | { readonly problem: string } | undefined {
  const element = doc.getElementById(SAVED_TRACE_ELEMENT_ID);
  if (element === null || element.getAttribute("type") !== "application/json") return undefined;
  return readSavedTrace(element.textContent ?? "");
}

/** A bridge with no hub: connected to nothing, every operation refused with the reason. */
export function createSavedPageBridge(): InspectorBridge {
  return {
    shell: "saved",
    onConnectionChange(onChange) {
      onChange("saved");
      return () => {};
    },
    subscribe: () => () => {},
    ...operationFunctions(async (op) => {
      throw new Error(
        `${op} needs the app or \`acp-retry-inspector serve\`: this is a saved page (export --html), with no hub behind it`,
      );
    }),
  };
}
