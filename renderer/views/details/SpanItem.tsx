/**
 * One agent span (`proxy --collect-agent-telemetry`) as an item of an indented tree: its name, its
 * duration and start, an error badge, its first attributes, and its children. Everything in it
 * came from the agent: rendered as text.
 */
import type { SpanNode } from "../../../shared/agent-telemetry/span-matching.js";
import { Badge } from "../../kit/Badge.js";
import { visibleText } from "../../model/text/visible-text.js";

/** Attributes shown per span; the trace file has all of them. */
const SHOWN_ATTRIBUTES = 8;

export function ms(n: number): string {
  return n >= 100 ? `${Math.round(n)} ms` : `${Math.round(n * 10) / 10} ms`;
}

export function SpanItem({ node, origin }: { node: SpanNode; origin: number }) {
  const s = node.span;
  const attributes = Object.entries(s.attributes ?? {});
  return (
    <li className="agent-span">
      <span className="agent-span__name">{visibleText(s.name)}</span>{" "}
      <span className="agent-span__time">
        {ms(Math.max(0, s.endMs - s.startMs))}, from +{ms(Math.max(0, s.startMs - origin))}
      </span>
      {s.status === "error" ? (
        <>
          {" "}
          <Badge
            tone="error"
            title={s.statusMessage === undefined ? undefined : visibleText(s.statusMessage)}
          >
            error
          </Badge>
        </>
      ) : null}
      {attributes.length > 0 ? (
        <span className="agent-span__attrs">
          {visibleText(
            attributes
              .slice(0, SHOWN_ATTRIBUTES)
              .map(([k, v]) => `${k}=${Array.isArray(v) ? JSON.stringify(v) : String(v)}`)
              .join(" · "),
          )}
          {attributes.length > SHOWN_ATTRIBUTES ? ` · +${attributes.length - SHOWN_ATTRIBUTES} more` : ""}
        </span>
      ) : null}
      {node.children.length > 0 ? (
        <ul>
          {node.children.map((c) => (
            <SpanItem key={c.span.spanId} node={c} origin={origin} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
