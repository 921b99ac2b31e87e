/**
 * The agent's stderr, line by line, as plain text; it follows new lines while scrolled to the end.
 * Lines written while the connection was being torn down are marked `[teardown]` and dimmed: noise
 * of closing, not a crash.
 */
import { useLayoutEffect, useRef } from "react";
import type { StderrLine } from "../traces/loaded-trace.js";

/** Shows at most this many of the newest lines; the trace keeps all of them. */
const VISIBLE_LINES = 2_000;

/**
 * The stderr panel: a labelled region with the newest lines, or an explanation while there are none.
 * `lines` may be a growing array; `count` says how many of it to show and re-renders on change.
 */
export function StderrPanel({ lines, count }: { lines: readonly StderrLine[]; count: number }) {
  const ref = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current && count > 0) el.scrollTop = el.scrollHeight;
  }, [count]);
  const shown = lines.slice(Math.max(0, Math.min(count, lines.length) - VISIBLE_LINES), count);
  return (
    <section
      ref={ref}
      className="stderr"
      aria-label="Agent stderr"
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
      }}
    >
      <h2 className="panel-title">
        Agent stderr <span className="visually-hidden">({count} lines)</span>
      </h2>
      {shown.length === 0 ? (
        <p>
          Nothing yet. Lines the agent writes to stderr (its logs, stack traces) appear here, kept apart from
          the ACP frames on stdout.
        </p>
      ) : (
        <pre className="stderr__lines">
          {shown.map((l, i) => {
            const nl = i < shown.length - 1 ? "\n" : "";
            return l.teardown ? (
              <span
                key={l.seq}
                className="stderr__teardown"
                title="written while the connection was being closed"
              >
                <span className="stderr__tag">[teardown]</span> {l.text}
                {nl}
              </span>
            ) : (
              `${l.text}${nl}`
            );
          })}
        </pre>
      )}
    </section>
  );
}
