/** How an outcome reads in a chip: a short label, a tone, and a sentence on hover. */
import type { Attempt, AttemptTone, Outcome } from "../../shared/analyzer/timeline-model.js";
import type { BadgeTone } from "./Badge.js";

/** The chip text, tone and hover explanation of an outcome. */
export function outcomeLabel(o: Outcome): { label: string; tone: BadgeTone; title: string } {
  switch (o.kind) {
    case "pending":
      return { label: "pending", tone: "info", title: "No answer yet." };
    case "inserted":
      return {
        label: o.messageId ? `inserted ${o.messageId}` : "inserted",
        tone: "ok",
        title: o.messageId
          ? `The Agent inserted the message as ${o.messageId}.`
          : `Answered with stopReason ${o.stopReason ?? "?"} and no messageId (v1 answers carry none; a v2 answer must).`,
      };
    case "answered":
      return { label: "answered", tone: "ok", title: "The request got a result." };
    case "error":
      return { label: `error ${o.code}`, tone: "warn", title: o.message };
    case "cancelled":
      return { label: "cancelled", tone: "warn", title: `-32800: ${o.message}` };
    case "lost":
      return { label: "lost", tone: "error", title: o.reason };
    case "dropped":
      if (o.held)
        return {
          label: "held, never delivered",
          tone: "error",
          title:
            "A delay fault held the Agent's answer and the connection closed (or the tap ended) first: the Client never saw it.",
        };
      return {
        label: `dropped ${o.frame}`,
        tone: "error",
        title:
          o.frame === "request"
            ? "Fault injection swallowed the request: the Agent never saw it."
            : `Fault injection swallowed the response${o.answer ? ` (${outcomeLabel(o.answer).label})` : ""}: the Client never saw it.`,
      };
  }
}

/** The badge tone of each attempt tone: red only for an RFD violation, neither green nor red for transport. */
const TONE_BADGE: Readonly<Record<AttemptTone, BadgeTone>> = {
  ok: "ok",
  violation: "error",
  warn: "warn",
  unknown: "neutral",
  pending: "info",
};

/** The badge tone of an attempt: the analyzer's `tone` (about the Agent and the RFD), never re-derived. */
export function attemptTone(a: Pick<Attempt, "tone">): BadgeTone {
  return TONE_BADGE[a.tone];
}

/**
 * The transport mark of an attempt whose colour speaks about the Agent (its effect is known) but
 * whose answer did not travel as sent: "answer dropped", "answer held", "answer lost", or null. An
 * attempt whose effect is unknown says so in its words and neutral colour already.
 */
export function transportMark(a: Pick<Attempt, "tone" | "clientSaw" | "sender" | "outcome">): string | null {
  if (a.tone === "unknown" || a.tone === "pending") return null;
  const saw = a.clientSaw;
  if (saw.kind === "forwarded")
    return a.sender.kind === "client"
      ? "answer dropped, retry's answer forwarded"
      : "forwarded to the client";
  if (saw.kind === "nothing-yet") return a.outcome.kind === "dropped" ? "answer dropped" : null;
  if (saw.kind !== "nothing-ever") return null;
  switch (saw.why) {
    case "answer-dropped":
      return "answer dropped";
    case "answer-held":
      return "answer held";
    case "lost":
      return "answer lost";
    default:
      return null;
  }
}

/**
 * The chip of a prompt attempt: the analyzer's words for it (what happened and what the Client saw,
 * the same words `analyze` prints), coloured by the analyzer's `tone`: about the Agent and the RFD
 * (a correct dedup is green even when its answer was dropped; a duplicate insert is red).
 */
export function attemptLabel(a: Attempt): { label: string; tone: BadgeTone; title: string } {
  const origin =
    a.sender.kind === "inspector" ? ` Sent by the inspector (${a.sender.role}), not the Client.` : "";
  const mark = transportMark(a);
  return {
    label: a.words,
    tone: attemptTone(a),
    title: `${a.words}.${mark ? ` Transport: ${mark}.` : ""}${origin}`,
  };
}
