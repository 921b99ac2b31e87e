/**
 * A tap that attaches while another trace is on screen is announced, not silently listed: a line
 * naming it and its agent command, with "Show it" (picks the trace) and Dismiss. Taps already there
 * when the window connected, and the demo's own taps, are not announced.
 */
import { useEffect, useRef, useState } from "react";
import { useInspector } from "../model/store/inspector-store.js";
import { visibleText } from "../model/text/visible-text.js";
import type { TraceEntry } from "../model/traces/trace-catalog.js";
import { shortCommand } from "./toolbar/trace-words.js";

/** The newest live trace that attached after the first list and is not shown; undefined when none. */
function useAttachedTap(): TraceEntry | undefined {
  const traces = useInspector((s) => s.traces);
  const shown = useInspector((s) => s.traceId);
  const demoTrace = useInspector((s) => s.demo?.traceId ?? null);
  const demoHere = useInspector((s) => s.demo !== undefined);
  const connected = useInspector((s) => s.connection === "connected");
  const seen = useRef<Set<string> | undefined>(undefined);
  const [announced, setAnnounced] = useState<string | undefined>(undefined);
  useEffect(() => {
    const live = traces.filter((t) => t.source === "live");
    if (seen.current === undefined) {
      // the first list after connecting: what was already there is not news
      if (!connected) return;
      seen.current = new Set(live.map((t) => t.id));
      return;
    }
    const fresh = live.filter((t) => !seen.current?.has(t.id));
    for (const t of fresh) seen.current.add(t.id);
    // the demo's scenarios start fresh taps of their own: the caption is about them already
    const news = fresh.filter((t) => t.id !== shown && t.id !== demoTrace && !(demoHere && isDemoTap(t)));
    const last = news.at(-1);
    if (last) setAnnounced(last.id);
  }, [traces, shown, demoTrace, demoHere, connected]);
  useEffect(() => {
    if (announced !== undefined && announced === shown) setAnnounced(undefined);
  }, [announced, shown]);
  const entry = announced === undefined ? undefined : traces.find((t) => t.id === announced);
  return entry && entry.id !== shown ? entry : undefined;
}

/** A tap the built-in demo started (its agent is the demo agent). */
function isDemoTap(t: TraceEntry): boolean {
  return (t.command ?? []).includes("demo-agent");
}

/** The announcement line. */
export function TapAttachedBanner() {
  const entry = useAttachedTap();
  const selectTrace = useInspector((s) => s.selectTrace);
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  if (!entry || dismissed === entry.id) return null;
  const command = entry.command && entry.command.length > 0 ? shortCommand(entry.command) : entry.detail;
  return (
    <div className="trace-banners">
      <p className="banner banner--info tap-attached" role="status" aria-label="Tap attached">
        <span
          className="tap-attached__text"
          title={visibleText(`${entry.label}${command ? ` (${command})` : ""}`)}
        >
          A tap attached: <strong>{visibleText(entry.label)}</strong>
          {command ? <> ({visibleText(command)})</> : null}. The views still show the trace you had.
        </span>
        <button type="button" onClick={() => selectTrace(entry.id)}>
          Show it
        </button>
        <button type="button" className="button--quiet" onClick={() => setDismissed(entry.id)}>
          Dismiss
        </button>
      </p>
    </div>
  );
}
