/**
 * The demo client panel: type a prompt and send it with a key (the safe client) or without one
 * (the unsafe path), see the demo agent's process and mode, the client's connection, and each
 * submission's attempts and messageIds. The status and the submissions come first, the form
 * after them, so the status is on screen at 1280x720 however little room the side column has.
 * Pure: props in, callbacks out.
 */
import { useState } from "react";
import type { DemoStatus, DemoSubmissionView } from "../../../shared/demo/demo-wire.js";
import { AGENT_MODES, type AgentMode } from "../../../shared/demo/scenario.js";
import { demoStatusParts, submissionParts, submissionSeparator, submissionWords } from "./demo-words.js";

/** What the panel shows and what it can ask for. */
export interface DemoPanelProps {
  readonly status: DemoStatus;
  /** The trace the views show (the demo's own, or another). */
  readonly shownTraceId: string | undefined;
  onSend(text: string, withKey: boolean): void;
  onReset(mode: AgentMode): void;
}

const short = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…` : id);

function SubmissionLine({ s }: { s: DemoSubmissionView }) {
  const dup = s.messageIds.length > 1 || (s.inspected?.inserts ?? 0) > 1;
  return (
    <li className={`demo-sub demo-sub--${dup ? "duplicate" : s.status}`} title={submissionWords(s)}>
      {submissionParts(s, short).map((p, i) => (
        <span key={p.text} className={p.muted ? "muted" : undefined}>
          {submissionSeparator(i)}
          {p.text}
        </span>
      ))}
    </li>
  );
}

/** The panel. */
export function DemoPanel({ status, shownTraceId, onSend, onReset }: DemoPanelProps) {
  const [text, setText] = useState("Deploy the site");
  const ready = status.state === "ready";
  const send = (withKey: boolean) => {
    if (text.trim() !== "") onSend(text, withKey);
  };
  return (
    <section className="demo-panel" aria-label="Demo client">
      <p className="demo-panel__status" role="status" aria-label="Demo status">
        {demoStatusParts(status, shownTraceId).map((p, i) => (
          <span key={`${p.kind}-${p.text}`} className={`demo-status__${p.kind}`}>
            {i > 0 ? " · " : ""}
            {p.text}
          </span>
        ))}
      </p>
      {status.submissions.length > 0 && (
        <ul className="demo-panel__subs" aria-label="Submissions">
          {status.submissions.map((s) => (
            <SubmissionLine key={s.index} s={s} />
          ))}
        </ul>
      )}
      <form
        className="demo-panel__form"
        onSubmit={(e) => {
          e.preventDefault();
          send(true);
        }}
      >
        <label>
          Prompt <input type="text" value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" disabled={!ready}>
          Send with key
        </button>
        <button type="button" disabled={!ready} onClick={() => send(false)}>
          Send without key
        </button>
        <label>
          Agent mode{" "}
          <select value={status.mode} onChange={(e) => onReset(e.target.value as AgentMode)}>
            {AGENT_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => onReset(status.mode)}>
          Restart agent
        </button>
      </form>
    </section>
  );
}
