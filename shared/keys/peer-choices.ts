/**
 * Every choice the Idempotency Keys RFD leaves open, as the reference peers make it, kept in one
 * place so it is easy to change when the final RFD text is published. `docs/demo-peers.md`
 * explains each one.
 */

import { uuidV5 } from "./uuid.js";

/**
 * UUIDv5 namespace for message ids derived from (sessionId, key). A fixed random UUID owned by
 * this project; changing it changes every derived id (and so breaks recognition of stored keys).
 */
export const MESSAGE_ID_NAMESPACE = "6f1d7c2e-4b0a-4d8e-9a53-2c7e1b5f9d40";

/**
 * The user `messageId` of a keyed prompt: UUIDv5 of `sessionId`, a NUL separator, then the key.
 * Deriving it (the RFD's adapter technique) stores the key with the message in the same write.
 * The NUL keeps ("ab","c") and ("a","bc") apart.
 */
export function derivedMessageId(sessionId: string, key: string): string {
  return uuidV5(MESSAGE_ID_NAMESPACE, `${sessionId}\u0000${key}`);
}

/**
 * What the Agent does with a recorded key that comes back with a different prompt. The RFD
 * allows both; the default answers as for a retry (comparing is optional), `strict` rejects
 * with -32602. Either way the key stays recorded for the first prompt.
 */
export type ReusedKeyPolicy = "answer-as-retry" | "reject";

/** The default reused-key policy of the reference agent. */
export const DEFAULT_REUSED_KEY_POLICY: ReusedKeyPolicy = "answer-as-retry";

/**
 * What happens to held (not yet inserted) prompts when the connection that sent them ends. The
 * RFD leaves it open; the reference agent keeps them queued, so a retry on a new connection gets
 * the original's outcome (and waits for it while it is still held).
 */
export const HELD_PROMPTS_ON_DISCONNECT: "keep" | "withdraw" = "keep";

/**
 * Whether the Agent finishes a turn that a crash interrupted after its message was inserted. The
 * RFD leaves it to the Agent; the reference agent continues it when the session is next loaded,
 * and never repeats a side effect already in the store, so each inserted message causes exactly
 * one side effect.
 */
export const CONTINUE_INTERRUPTED_TURNS = true;

/** JSON-RPC error codes the peers use. */
export const ErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  resourceNotFound: -32002,
  unsupportedProtocolVersion: -32022,
} as const;

/** How old a pending submission may be before a restarted Client shows it instead of resending it (ms). */
export const DEFAULT_MAX_PENDING_AGE_MS = 60 * 60 * 1000;
