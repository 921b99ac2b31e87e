/**
 * Judging one submission: which verdicts of `VERDICTS` apply to its attempts as they stand now. A v1
 * session is judged by what v1 promises (the RFD doesn't change v1): no v2 rule is cited for it, and
 * its lost answers and resends are information. Attempts the Client did not send (an `origin`) are
 * never judged as the Client's. A submission a later one resends is settled by it: no `unresolved`.
 */
import { CANCELLED_INVALID_KEY_IS_ACCEPTED } from "../protocol/analyzer-choices.js";
import { ErrorCode } from "../protocol/error-codes.js";
import { agentAnswer, answerSignature, describeOutcome } from "./outcome.js";
import { insertCount, type SubmissionState } from "./submission-state.js";
import { attemptRef, submissionRef } from "./submission-words.js";
import type { Attempt, Outcome, VerdictHit } from "./timeline-model.js";
import { type VerdictName, verdictSeverity } from "./verdicts.js";

function hit(name: VerdictName, detail: string, seqs: readonly number[]): VerdictHit {
  return { name, severity: verdictSeverity(name), detail, seqs };
}

function label(a: Attempt): string {
  return attemptRef(a);
}

function answerSeqs(attempts: readonly Attempt[]): number[] {
  return attempts.map((a) => a.responseSeq ?? a.requestSeq);
}

/** "; and the Agent inserted it again (…)" when both a resend and the submission it repeats inserted, else "". */
function insertedAgain(s: SubmissionState): string {
  const of = s.resend?.of;
  if (!of || insertCount(s) === 0 || insertCount(of) === 0) return "";
  const ids = [...of.row.messageIds, ...s.row.messageIds];
  const total = insertCount(of) + insertCount(s);
  return `, and the Agent inserted it again: ${total} user messages${ids.length > 0 ? ` (${ids.join(", ")})` : ""}`;
}

/** The verdicts a submission earns now; ok verdicts only when nothing is wrong. */
export function judgeSubmission(s: SubmissionState): VerdictHit[] {
  const row = s.row;
  const attempts = row.attempts;
  const client = attempts.some((a) => a.origin !== undefined)
    ? attempts.filter((a) => a.origin === undefined)
    : attempts;
  const hits: VerdictHit[] = [];
  const inserts = insertCount(s);
  const v2 = !s.v1;

  if (v2 && row.keyStatus === "valid" && inserts > 1) {
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

  if (v2 && row.keyStatus === "invalid") {
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

  if (v2 && s.leakSeqs.length > 0) {
    hits.push(
      hit(
        "key-leaked",
        `the key appeared in ${s.leakSeqs.length === 1 ? "an Agent frame" : `${s.leakSeqs.length} Agent frames`}`,
        s.leakSeqs,
      ),
    );
  }

  for (const group of v2 ? s.cancelGroups : []) {
    const answered: { attempt: Attempt; answer: Outcome }[] = [];
    for (const attempt of group) {
      const answer = agentAnswer(attempt.outcome);
      if (answer) answered.push({ attempt, answer });
    }
    const signatures = new Set(answered.map((x) => answerSignature(x.answer)));
    if (signatures.size > 1) {
      const parts = answered.map((x) => `${label(x.attempt)} ${x.attempt.words}`);
      hits.push(
        hit(
          "cancel-not-propagated",
          `after the cancel, the pending attempts ended differently: ${parts.join("; ")}`,
          answerSeqs(answered.map((x) => x.attempt)),
        ),
      );
    }
  }

  if (v2 && row.keyStatus === "valid" && s.digests.length > 1) {
    const first = s.digests[0];
    const differing = attempts.filter((a, i) => a.origin === undefined && s.digests[i] !== first);
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

  if (row.keyStatus === "absent" && inserts > 1) {
    // No key to dedupe by: a retry (the inspector's) of an unkeyed prompt inserted it again.
    const inserting = attempts.filter((a) => a.agentEffect.kind === "inserted");
    hits.push(
      hit(
        "unkeyed-retry-inserted",
        `${inserts} user messages for one unkeyed prompt${row.messageIds.length > 0 ? ` (${row.messageIds.join(", ")})` : ""}: ${inserting.map(label).join(", ")} each inserted it`,
        answerSeqs(inserting),
      ),
    );
  }

  const anyPending = attempts.some((a) => a.agentEffect.kind === "pending");
  // The Client has an answer: its own, or one the inspector forwarded under its id (attempt-outcome.ts).
  const seen = row.clientAnswered;
  if (client.length > 0 && !anyPending && !seen && s.resentAs === null) {
    const what = client.map((a) => `${label(a)}: ${a.words}`).join("; ");
    hits.push(
      v2
        ? hit(
            "unresolved",
            `no answer reached the Client and it did not resend: ${what}`,
            client.map((a) => a.requestSeq),
          )
        : hit(
            "v1-answer-lost",
            `no answer reached the Client: ${what}`,
            client.map((a) => a.requestSeq),
          ),
    );
  }

  const resend = s.resend;
  if (resend !== null) {
    const of = submissionRef(resend.of.row);
    const why = resend.after === "lost" ? "its answer was lost" : "its error answer";
    const seqs = [...resend.of.row.attempts.map((a) => a.requestSeq), ...client.map((a) => a.requestSeq)];
    if (!v2) {
      hits.push(
        hit(
          "v1-resend",
          `v1 has no keys: this resend may insert twice (it repeats ${of} after ${why})`,
          seqs,
        ),
      );
    } else if (resend.after === "lost" && resend.kind === "unkeyed") {
      hits.push(hit("unkeyed-resend", `resends ${of} without a key after ${why}${insertedAgain(s)}`, seqs));
    } else if (resend.after === "lost") {
      const earlier = resend.of.row.key === null ? "no key" : `key ${resend.of.row.key}`;
      hits.push(
        hit(
          "new-key-on-resend",
          `resends ${of} under a new key (it had ${earlier}) after ${why}${insertedAgain(s)}`,
          seqs,
        ),
      );
    }
  }

  if (!v2 && row.keyStatus === "valid" && client.length > 1) {
    // v1 has no idempotencyKey: a retry under the same key is just another prompt to a v1 Agent.
    const twice = inserts > 1 ? `, and it did: ${inserts} inserts` : "";
    hits.push(
      hit(
        "v1-resend",
        `v1 has no keys: ${client.length - 1} retry(s) of ${submissionRef(row)} under the same key may insert twice${twice}`,
        client.map((a) => a.requestSeq),
      ),
    );
  }

  // Arrays built by push keep spare room; the verdicts a row keeps are copied at their exact length.
  if (hits.length > 0 || !seen) return hits.length === 0 ? [] : hits.slice();
  if (inserts === 0 && attempts.every((a) => agentAnswer(a.outcome)?.kind === "cancelled")) {
    return [
      hit(
        "withdrawn",
        `${attempts.length === 1 ? "the attempt was" : `all ${attempts.length} attempts were`} answered -32800: nothing inserted`,
        answerSeqs(attempts),
      ),
    ];
  }
  if (inserts > 1) return [];
  if (resend !== null) {
    // A resend after an error answer: the error said the earlier one was not inserted.
    if (inserts !== 1) return [];
    return [
      hit(
        "retried-after-error",
        `resends ${submissionRef(resend.of.row)} after its error answer; inserted ${row.clientMessageId ?? row.finalMessageId ?? "(v1)"}`,
        [...resend.of.row.attempts.map((a) => a.responseSeq ?? a.requestSeq), ...answerSeqs(attempts)],
      ),
    ];
  }
  // A submission a later one resends was retried: "sent once, nothing to retry" would not be true.
  if (s.resentAs !== null) return [];
  const only = attempts.length === 1 ? attempts[0] : undefined;
  if (only) {
    return [hit("single", `one attempt: ${only.words}`, answerSeqs(attempts))];
  }
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
