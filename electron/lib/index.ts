/**
 * The library entry of acp-retry-inspector for Agent and Client authors: the two key helpers
 * (pure, storage behind small interfaces), the Node file-backed store the demo client uses, and the
 * conformance suite as a library (`runConformance`).
 */

export type * from "../../shared/conformance/conformance-result.js";
export * from "../../shared/keys/index.js";
export type { ConformanceOptions } from "../conformance/conformance-options.js";
export { runConformance } from "../conformance/run-conformance.js";
export { PendingSubmissionFile } from "../peers/client/pending-file.js";
