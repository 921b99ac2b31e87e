/**
 * The demo agent's modes. `correct` follows every RFD rule; the others break them on purpose so
 * demos, QA and the conformance suite have something to catch.
 */

import { randomUUID } from "node:crypto";
import { AgentKeyLedger, promptFingerprint } from "../../../shared/keys/agent-key-ledger.js";
import type { SessionStore } from "./session-store.js";

/** How the demo agent treats idempotency keys. */
export type AgentMode = "correct" | "naive" | "forgetful" | "per-connection" | "strict";

/** Every mode, for argument parsing and help. */
export const AGENT_MODES: readonly AgentMode[] = [
  "correct",
  "naive",
  "forgetful",
  "per-connection",
  "strict",
];

/** One line per mode, for `--help` and the docs. */
export const AGENT_MODE_HELP: Record<AgentMode, string> = {
  correct: "every RFD rule; keys stored with their messages, recognised across restarts (default)",
  naive: "ignores keys: every attempt inserts a message and runs the work again",
  forgetful: "keys in memory only: correct until the agent restarts",
  "per-connection":
    "keys remembered on their connection only: a session resumed on another connection (or a restarted agent) has forgotten them",
  strict: "like correct, and a recorded key with a different prompt is rejected with -32602",
};

/** What a mode means for the key machinery. */
export interface ModePolicy {
  /** The ledger, or undefined when keys are ignored (naive). */
  readonly ledger?: AgentKeyLedger;
  /** Whether the key is written into the user message record. */
  readonly storesKeys: boolean;
  /** Whether `session/resume` forgets the session's keys (they lived on the connection that sent them). */
  readonly forgetsOnResume?: boolean;
}

/** Builds the key policy of `mode` over `store`. */
export function modePolicy(mode: AgentMode, store: SessionStore): ModePolicy {
  switch (mode) {
    case "naive":
      return { storesKeys: false };
    case "forgetful":
      // No history and random message ids: nothing about the key survives a restart.
      return { ledger: new AgentKeyLedger({ messageIdFor: () => randomUUID() }), storesKeys: false };
    case "per-connection":
      // As forgetful, and a resume (the way a session reaches another connection) forgets its keys.
      return {
        ledger: new AgentKeyLedger({ messageIdFor: () => randomUUID() }),
        storesKeys: false,
        forgetsOnResume: true,
      };
    case "correct":
    case "strict":
      return {
        storesKeys: true,
        ledger: new AgentKeyLedger({
          reusedKey: mode === "strict" ? "reject" : "answer-as-retry",
          history: {
            userMessages(sessionId) {
              const stored = store.read(sessionId);
              return (stored?.records ?? []).flatMap((r) =>
                r.t === "user"
                  ? [{ messageId: r.messageId, key: r.key, fingerprint: promptFingerprint(r.content) }]
                  : [],
              );
            },
          },
        }),
      };
  }
}
