/**
 * The last step before spans leave the process for a collector that may be remote: every span
 * name, event name, status message and string attribute goes through the same secret shapes as a
 * redacted export (shared/trace/secret-shapes.ts), and an Agent's own error text in a status
 * message is replaced by its length unless `--otlp-include-prompts` (it can quote the prompt).
 * Issue 31: a Bearer token, an `?api_key=` value and prompt text reached the collector.
 */
import type {
  SpanAttributes,
  SpanAttributeValue,
  SpanEventDescription,
  SpanOp,
  SpanStatusDescription,
} from "../../shared/otel/span-description.js";
import { hideSecretsInText } from "../../shared/trace/secret-shapes.js";

/** A status message is cut to this many characters. */
export const STATUS_MESSAGE_CHARS = 200;

const hide = (secret: string) => `[redacted: ${secret.length} chars]`;
const clean = (text: string) => hideSecretsInText(text, hide);

/** A JSON-RPC error's status, `<code> <agent's message>`: the code stays, the agent's text is its length. */
const AGENT_ERROR = /^(-?\d+) ([\s\S]*)$/;

/** The status message as exported: secrets hidden, the Agent's text hidden unless prompts are included, cut. */
export function exportedStatusMessage(message: string, includePrompts: boolean): string {
  const agent = includePrompts ? null : AGENT_ERROR.exec(message);
  const text = agent ? `${agent[1]} [agent error text: ${(agent[2] ?? "").length} chars]` : clean(message);
  return text.length > STATUS_MESSAGE_CHARS ? `${text.slice(0, STATUS_MESSAGE_CHARS - 1)}…` : text;
}

function attributes(attrs: SpanAttributes): SpanAttributes {
  let out: Record<string, SpanAttributeValue> | null = null;
  for (const [k, v] of Object.entries(attrs)) {
    const c = typeof v === "string" ? clean(v) : Array.isArray(v) ? v.map(clean) : v;
    if (c === v || (Array.isArray(c) && c.every((x, i) => x === (v as readonly string[])[i]))) continue;
    out ??= { ...attrs };
    out[k] = c;
  }
  return out ?? attrs;
}

function status(s: SpanStatusDescription, includePrompts: boolean): SpanStatusDescription {
  return s.message === undefined ? s : { ...s, message: exportedStatusMessage(s.message, includePrompts) };
}

function event(e: SpanEventDescription): SpanEventDescription {
  return { ...e, name: clean(e.name), attributes: attributes(e.attributes) };
}

/** The steps with their names, status messages and string attributes as a collector may see them. */
export function redactSpanOps(ops: readonly SpanOp[], includePrompts: boolean): SpanOp[] {
  return ops.map((op): SpanOp => {
    switch (op.op) {
      case "open":
        return {
          ...op,
          span: { ...op.span, name: clean(op.span.name), attributes: attributes(op.span.attributes) },
        };
      case "event":
        return { ...op, event: event(op.event) };
      case "close":
        return { ...op, attributes: attributes(op.attributes), status: status(op.status, includePrompts) };
      case "span":
        return {
          ...op,
          span: {
            ...op.span,
            name: clean(op.span.name),
            attributes: attributes(op.span.attributes),
            status: status(op.span.status, includePrompts),
            events: op.span.events.map(event),
          },
        };
      default:
        return op;
    }
  });
}
