/** Reading outcomes from responses, and the two views of an outcome: what the Agent answered, what the Client saw. */

import { ErrorCode } from "../protocol/error-codes.js";
import type { Frame } from "../protocol/frame.js";
import type { Outcome } from "./timeline-model.js";

/** The outcome a result or error response states; `prompt` reads a `session/prompt` result as an insert. */
export function outcomeOfResponse(frame: Frame, prompt: boolean): Outcome {
  if (frame.kind === "error") {
    if (frame.error.code === ErrorCode.RequestCancelled)
      return { kind: "cancelled", message: frame.error.message };
    return { kind: "error", code: frame.error.code, message: frame.error.message };
  }
  if (!prompt) return { kind: "answered" };
  const result = frame.kind === "result" ? (frame.result as Record<string, unknown> | null) : null;
  const messageId = result && typeof result.messageId === "string" ? result.messageId : null;
  const stopReason = result && typeof result.stopReason === "string" ? result.stopReason : undefined;
  return stopReason === undefined
    ? { kind: "inserted", messageId }
    : { kind: "inserted", messageId, stopReason };
}

/** What the Agent answered (also when the inspector dropped the answer), or undefined when it did not answer. */
export function agentAnswer(outcome: Outcome): Outcome | undefined {
  switch (outcome.kind) {
    case "inserted":
    case "answered":
    case "error":
    case "cancelled":
      return outcome;
    case "dropped":
      return outcome.answer;
    default:
      return undefined;
  }
}

/** True when the Client saw a definite answer (a result or an error); lost, dropped and pending are not. */
export function clientSawAnswer(outcome: Outcome): boolean {
  const k = outcome.kind;
  return k === "inserted" || k === "answered" || k === "error" || k === "cancelled";
}

/** True when the Client never learned the answer and nothing is pending: the request was lost or dropped. */
export function answerLost(outcome: Outcome): boolean {
  return outcome.kind === "lost" || outcome.kind === "dropped";
}

/** A short comparable signature of an answer: `inserted:<messageId>`, `cancelled`, `error:<code>`, `answered`. */
export function answerSignature(answer: Outcome): string {
  switch (answer.kind) {
    case "inserted":
      return `inserted:${answer.messageId ?? ""}`;
    case "error":
      return `error:${answer.code}`;
    default:
      return answer.kind;
  }
}

/** One line describing an outcome, for reports. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "pending":
      return "pending";
    case "inserted":
      return outcome.messageId !== null
        ? `inserted ${outcome.messageId}`
        : `inserted (v1, stopReason ${outcome.stopReason ?? "?"})`;
    case "answered":
      return "answered";
    case "error":
      return `error ${outcome.code} ${outcome.message}`;
    case "cancelled":
      return `cancelled -32800 ${outcome.message}`;
    case "lost":
      return `lost (${outcome.reason})`;
    case "dropped":
      if (outcome.held)
        return `held by a delay and never delivered (Agent answered ${outcome.answer ? describeOutcome(outcome.answer) : "?"})`;
      return outcome.frame === "request"
        ? "dropped (request swallowed by fault injection)"
        : `dropped (response swallowed by fault injection; Agent answered ${outcome.answer ? describeOutcome(outcome.answer) : "?"})`;
  }
}
