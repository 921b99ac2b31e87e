/**
 * The agent's stderr, line by line, as plain text; it follows new lines while scrolled to the end.
 * Lines written while the connection was being torn down are marked `[teardown]` and dimmed: noise
 * of closing, not a crash. While there are none the panel is one collapsed line; with lines it can
 * be hidden and shown again, and its height is set by the split handle above it.
 */
import { ChevronDown, ChevronUp, SquareTerminal } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { visibleText } from "../model/text/visible-text.js";
import type { StderrLine } from "../model/traces/loaded-trace.js";

/** Shows at most this many of the newest lines; the trace keeps all of them. */
const VISIBLE_LINES = 2_000;

/**
 * The stderr panel: a labelled region with the newest lines, or an explanation while there are none.
 * `lines` may be a growing array; `count` says how many of it to show and re-renders on change.
 */
export function StderrPanel({
  lines,
  count,
  height,
}: {
  lines: readonly StderrLine[];
  count: number;
  /** The open panel's height in px (the split handle's); unset: the stylesheet's. */
  height?: number;
}) {
  const ref = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  const [hidden, setHidden] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current && count > 0) el.scrollTop = el.scrollHeight;
  }, [count]);
  const shown = lines.slice(Math.max(0, Math.min(count, lines.length) - VISIBLE_LINES), count);
  if (shown.length === 0) {
    return (
      <section className="stderr stderr--collapsed" aria-label="Agent stderr">
        <h2 className="panel-title">
          <SquareTerminal className="icon" aria-hidden="true" /> Agent stderr
        </h2>
        <span className="muted stderr__hint">
          Nothing yet: lines the agent writes to stderr (its logs, stack traces) appear here, apart from the
          ACP frames on stdout.
        </span>
      </section>
    );
  }
  return (
    <section
      ref={ref}
      className={`stderr${hidden ? " stderr--collapsed" : ""}`}
      aria-label="Agent stderr"
      style={hidden || height === undefined ? undefined : { height, maxHeight: "none" }}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
      }}
    >
      <h2 className="panel-title">
        <SquareTerminal className="icon" aria-hidden="true" /> Agent stderr{" "}
        <span className="muted">
          ({count} line{count === 1 ? "" : "s"})
        </span>{" "}
        <button
          type="button"
          className="button--quiet"
          aria-expanded={!hidden}
          aria-label="Agent stderr lines"
          title={hidden ? "Show the lines" : "Hide the lines"}
          onClick={() => setHidden(!hidden)}
        >
          {hidden ? (
            <ChevronUp className="icon" aria-hidden="true" />
          ) : (
            <ChevronDown className="icon" aria-hidden="true" />
          )}
        </button>
      </h2>
      {hidden ? null : (
        <pre className="stderr__lines">
          {shown.map((l, i) => {
            const nl = i < shown.length - 1 ? "\n" : "";
            return l.teardown ? (
              <span
                key={l.seq}
                className="stderr__teardown"
                title="written while the connection was being closed"
              >
                <span className="stderr__tag">[teardown]</span> {visibleText(l.text)}
                {nl}
              </span>
            ) : (
              `${visibleText(l.text)}${nl}`
            );
          })}
        </pre>
      )}
    </section>
  );
}
