/**
 * The truth oracle's comparison cut to what can be checked against an agent nobody here wrote: its
 * store is not ours to read, so only the claims about what the client saw are judged, against the
 * reference client's own record (`demo-client --json` or its pending file). The claims and the
 * comparison are the oracle's own (electron/truth/compare.ts); this keeps the client's statements.
 */

import type { SubmissionClaims } from "../../truth/claims.js";
import type { ClientSubmissionTruth } from "../../truth/client-truth.js";
import { compareClaims, type FalseStatement } from "../../truth/compare.js";

/** Result words that say no answer reached the client. */
const NEVER_SAW = /never saw|has not seen it yet|no answer reached the client/;

/** Every false statement about what the client saw in `claims`, against the client's record `mine`. */
export function compareClientSaw(
  claims: SubmissionClaims,
  mine: ClientSubmissionTruth | undefined,
): FalseStatement[] {
  const received = mine?.received ?? [];
  const idless = mine?.idless ?? 0;
  // An answer without a messageId is still an answer: it counts as definite, like an error does.
  const errors = [...(mine?.errors ?? []), ...Array.from({ length: idless }, () => 0)];
  const out = compareClaims(claims, { inserted: [], received, errors }).filter(
    (s) =>
      s.claim.includes("the client saw") ||
      (s.claim === "result words" && s.truth.startsWith("the client's record")) ||
      (s.claim === "submission" && received.length + idless > 0),
  );
  if (idless > 0 && claims.results.length > 0 && claims.results.every((r) => NEVER_SAW.test(r)))
    out.push({
      key: claims.key,
      claim: "result words",
      said: claims.results.join(" | "),
      truth: `the client's record has ${idless} answer(s) without a messageId`,
    });
  return out;
}
