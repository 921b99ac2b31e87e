/** Judging one submission: which verdicts of `VERDICTS` apply to its attempts as they stand now. */
import { CANCELLED_INVALID_KEY_IS_ACCEPTED } from "../protocol/decisions.js";
import { ErrorCode } from "../protocol/error-codes.js";
import { agentAnswer, answerSignature, clientSawAnswer, describeOutcome } from "./outcome.js";
import { insertCount, type SubmissionState } from "./submission-state.js";
import type { Attempt, Outcome, VerdictHit } from "./timeline-model.js";
import { type VerdictName, verdictSeverity } from "./verdicts.js";

function hit(name: VerdictName, detail: string, seqs: readonly number[]): VerdictHit {
  return { name, severity: verdictSeverity(name), detail, seqs };
}

function label(a: Attempt): string {
  return `#${a.conn}/${JSON.stringify(a.id)}`;
}

function answerSeqs(attempts: readonly Attempt[]): number[] {
  return attempts.map((a) => a.responseSeq ?? a.requestSeq);
}

/** The verdicts a submission earns now; ok verdicts only when nothing is wrong. */
export function judgeSubmission(s: SubmissionState): VerdictHit[] {
  const row = s.row;
  const attempts = row.attempts;
  const hits: VerdictHit[] = [];
  const inserts = insertCount(s);

  if (row.keyStatus === "valid" && inserts > 1) {
    const inserting = attempts.filter((a) => {
      const answer = agentAnswer(a.outcome);
      return answer?.kind === "inserted" && answer.messageId === null;
    });
    const ids = row.messageIds.join(", ");
    const seqs = [...s.messageIdSeqs, ...answerSeqs(inserting)].sort((x, y) => x - y);
    hits.push(
      hit(
        "duplicate-insert",
        `${inserts} user messages for one key${ids ? ` (${ids})` : ""} from ${attempts.length} attempts`,
        seqs,
      ),
    );
  }

  if (row.keyStatus === "invalid") {
    for (const a of attempts) {
      const answer = agentAnswer(a.outcome);
      if (!answer) continue;
      const rejected = answer.kind === "error" && answer.code === ErrorCode.InvalidParams;
      const cancelledOk = answer.kind === "cancelled" && !CANCELLED_INVALID_KEY_IS_ACCEPTED;
      if (!rejected && !cancelledOk) {
        hits.push(
          hit(
            "invalid-key-accepted",
            `attempt ${label(a)} with key ${row.invalidKey?.shown ?? "?"} was answered: ${describeOutcome(answer)}`,
            [a.requestSeq, a.responseSeq ?? a.requestSeq],
          ),
        );
      }
    }
  }

  if (s.leakSeqs.length > 0) {
    hits.push(
      hit(
        "key-leaked",
        `the key appeared in ${s.leakSeqs.length === 1 ? "an Agent frame" : `${s.leakSeqs.length} Agent frames`}`,
        s.leakSeqs,
      ),
    );
  }

  for (const group of s.cancelGroups) {
    const answered: { attempt: Attempt; answer: Outcome }[] = [];
    for (const attempt of group) {
      const answer = agentAnswer(attempt.outcome);
      if (answer) answered.push({ attempt, answer });
    }
    const signatures = new Set(answered.map((x) => answerSignature(x.answer)));
    if (signatures.size > 1) {
      const parts = answered.map((x) => `${label(x.attempt)} ${describeOutcome(x.answer)}`);
      hits.push(
        hit(
          "cancel-not-propagated",
          `after the cancel, the pending attempts ended differently: ${parts.join("; ")}`,
          answerSeqs(answered.map((x) => x.attempt)),
        ),
      );
    }
  }

  if (row.keyStatus === "valid" && s.digests.length > 1) {
    const first = s.digests[0];
    const differing = attempts.filter((a, i) => s.digests[i] !== first && a.origin !== "inspector");
    if (differing.length > 0) {
      hits.push(
        hit(
          "key-reused-different-prompt",
          `${differing.map(label).join(", ")} carried the key with a prompt different from the first attempt's`,
          differing.map((a) => a.requestSeq),
        ),
      );
    }
  }

  const anyPending = attempts.some((a) => a.outcome.kind === "pending");
  // An inspector attempt's answer reached the Client only when the tap forwarded it.
  const seen = attempts.filter(
    (a) => clientSawAnswer(a.outcome) && (a.origin !== "inspector" || a.forwarded),
  );
  if (attempts.length > 0 && !anyPending && seen.length === 0) {
    hits.push(
      hit(
        "unresolved",
        `none of ${attempts.length} attempt(s) got an answer the Client saw (${attempts.map((a) => a.outcome.kind).join(", ")})`,
        attempts.map((a) => a.requestSeq),
      ),
    );
  }

  if (row.resendOf !== null) {
    hits.push(
      hit(
        "unkeyed-resend",
        `resends submission ${row.resendOf} without a key after its answer was lost`,
        attempts.map((a) => a.requestSeq),
      ),
    );
  }

  // Arrays built by push keep spare room; the verdicts a row keeps are copied at their exact length.
  if (hits.length > 0 || seen.length === 0) return hits.length === 0 ? [] : hits.slice();
  const only = attempts.length === 1 ? attempts[0] : undefined;
  if (only) {
    return [hit("single", `one attempt: ${describeOutcome(only.outcome)}`, answerSeqs(attempts))];
  }
  if (inserts > 1) return [];
  const firstError = attempts.findIndex((a) => a.outcome.kind === "error");
  const insertedAfterError =
    firstError !== -1 && attempts.slice(firstError + 1).some((a) => a.outcome.kind === "inserted");
  if (insertedAfterError) {
    return [
      hit(
        "retried-after-error",
        `${attempts.length} attempts: an error, then inserted ${row.finalMessageId ?? "(v1)"}`,
        answerSeqs(attempts),
      ),
    ];
  }
  if (inserts === 1) {
    return [
      hit(
        "deduplicated",
        `${attempts.length} attempts, one user message ${row.finalMessageId ?? "(v1)"}`,
        answerSeqs(attempts),
      ),
    ];
  }
  return [];
}
