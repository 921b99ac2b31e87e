/**
 * The library entry of acp-retry-inspector for Agent and Client authors: the two key helpers
 * (pure, storage behind small interfaces) and the Node file-backed store the demo client uses.
 */

export * from "../../shared/keys/index.js";
export { PendingSubmissionFile } from "../peers/client/pending-file.js";
