/** The reusable key helpers of the reference peers, for Agent and Client authors. */

export {
  AgentKeyLedger,
  type AgentKeyLedgerOptions,
  type KeyLedgerHistory,
  type KeyOutcome,
  type PromptAdmission,
  promptFingerprint,
  type StoredUserMessage,
} from "./agent-key-ledger.js";
export {
  type AttemptOutcome,
  ClientSubmissionTracker,
  type SubmissionStatus,
  type SubmissionStore,
  type SubmissionTrackerOptions,
  type TrackedAttempt,
  type TrackedSubmission,
  type TrackerSnapshot,
} from "./client-submission-tracker.js";
export {
  DEFAULT_REUSED_KEY_POLICY,
  derivedMessageId,
  ErrorCode,
  type ReusedKeyPolicy,
} from "./peer-choices.js";
export { randomUuid, uuidV5 } from "./uuid.js";
