/**
 * The four retry classes of the "v2 Idempotency Keys" RFD, named as PROTOCOL-NOTES §5 names them:
 * what a Client may do with a request whose response it never saw.
 */

/** A method's retry class. */
export type RetryClass = "safe" | "keyed" | "duplicating" | "not-resent";

/** A retry class, or `unclassified` for a method the catalogue has not audited (new or custom methods). */
export type RetryClassOrUnclassified = RetryClass | "unclassified";

/** Every retry class, in the order the docs list them. */
export const RETRY_CLASSES: readonly RetryClass[] = ["safe", "keyed", "duplicating", "not-resent"];

/** What each class means for a Client whose response was lost (PROTOCOL-NOTES §5). */
export const RETRY_CLASS_MEANING: Readonly<Record<RetryClassOrUnclassified, string>> = {
  safe: "send again as is; a repeat changes nothing or returns current state",
  keyed: "send again with the same idempotencyKey; without one it is unsafe",
  duplicating: "a repeat creates another object (cheap but real duplicate); don't resend blindly",
  "not-resent":
    "never resent: notifications (no response to lose) and requests whose repeat re-runs a side effect or asks the user again",
  unclassified: "not in the audited catalogue (a newer or custom method): treat as unsafe to resend",
};
