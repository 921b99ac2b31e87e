/** How an outcome reads in a chip: a short label, a tone, and a sentence on hover. */
import type { Attempt, Outcome } from "../../shared/analyzer/timeline-model.js";
import type { BadgeTone } from "../components/Badge.js";

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
          : `Answered with stopReason ${o.stopReason ?? "?"} (protocol v1, no messageId).`,
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

/**
 * The chip of a prompt attempt: the analyzer's words for it (what happened and what the Client saw,
 * the same words `analyze` prints), toned by what the Client got.
 */
export function attemptLabel(a: Attempt): { label: string; tone: BadgeTone; title: string } {
  const o = a.outcome;
  const tone: BadgeTone =
    o.kind === "lost" || o.kind === "dropped"
      ? "error"
      : o.kind === "pending"
        ? "info"
        : o.kind === "error" || o.kind === "cancelled"
          ? "warn"
          : "ok";
  const origin = a.origin !== undefined ? ` Sent by the ${a.origin}, not the Client.` : "";
  return { label: a.words, tone, title: `${a.words}.${origin}` };
}
