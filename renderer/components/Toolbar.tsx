/**
 * The toolbar: connection state, fault buttons, pause/clear, export/import, and view options.
 * Every button calls one bridge operation by name; outcomes appear in the notice line.
 */
import { useRef } from "react";
import { DEFAULT_FAULT_DELAY_MS, FAULT_BUTTONS } from "../app/fault-catalogue.js";
import { downloadText } from "../app/trace-files.js";
import { useOperation } from "../app/use-operation.js";
import type { ConnectionState } from "../bridge/inspector-bridge.js";
import { useBridge, useInspector } from "../store/inspector-store.js";
import { Badge, type BadgeTone } from "./Badge.js";

const CONNECTION: Readonly<Record<ConnectionState, { tone: BadgeTone; label: string }>> = {
  connecting: { tone: "info", label: "connecting" },
  connected: { tone: "ok", label: "connected" },
  reconnecting: { tone: "warn", label: "reconnecting" },
  unauthorized: { tone: "error", label: "token refused" },
};

function ConnectionBadge() {
  const connection = useInspector((s) => s.connection);
  const label = useInspector((s) => s.status?.label);
  const c = CONNECTION[connection];
  return (
    <output className="toolbar__group" aria-label="Connection">
      <Badge tone={c.tone}>{c.label}</Badge>
      {label ? <span>{label}</span> : null}
    </output>
  );
}

function FaultButtons({ disabled }: { disabled: boolean }) {
  const bridge = useBridge();
  const run = useOperation();
  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Fault injection</legend>
      {FAULT_BUTTONS.map((f) => (
        <button
          key={f.action}
          type="button"
          title={f.explanation}
          disabled={disabled}
          onClick={() =>
            run(
              f.label,
              () =>
                bridge.injectFault(
                  f.action,
                  f.action === "delay-next-response" ? DEFAULT_FAULT_DELAY_MS : undefined,
                ),
              (r) => r.detail,
            )
          }
        >
          {f.label}
        </button>
      ))}
    </fieldset>
  );
}

function SessionButtons({ disabled }: { disabled: boolean }) {
  const bridge = useBridge();
  const run = useOperation();
  const paused = useInspector((s) => s.status?.paused ?? false);
  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Recording</legend>
      <button
        type="button"
        aria-pressed={paused}
        disabled={disabled}
        title="Stop adding new frames to the view; the trace on disk keeps recording."
        onClick={() => run(paused ? "Resume" : "Pause", () => bridge.setPaused(!paused))}
      >
        {paused ? "Resume" : "Pause"}
      </button>
      <button
        type="button"
        disabled={disabled}
        title="Empty the view; the trace on disk is kept."
        onClick={() => run("Clear", () => bridge.clear())}
      >
        Clear
      </button>
    </fieldset>
  );
}

function TraceButtons({ disabled }: { disabled: boolean }) {
  const bridge = useBridge();
  const run = useOperation();
  const redact = useInspector((s) => s.redactExport);
  const setRedact = useInspector((s) => s.setRedactExport);
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Trace file</legend>
      <button
        type="button"
        disabled={disabled}
        onClick={() =>
          run(
            "Export",
            async () => {
              const r = await bridge.exportTrace(redact);
              downloadText(document, r.fileName, r.text);
              return r;
            },
            (r) => `saved ${r.fileName}`,
          )
        }
      >
        Export
      </button>
      <label title="Replace prompt text and file contents by their length (the default, safe to share).">
        <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.currentTarget.checked)} /> Redact
      </label>
      <button type="button" disabled={disabled} onClick={() => fileInput.current?.click()}>
        Import…
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".jsonl,.ndjson,application/x-ndjson,application/json,text/plain"
        aria-label="Import trace file"
        className="visually-hidden"
        tabIndex={-1}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (!file) return;
          void run(
            `Import ${file.name}`,
            async () => bridge.importTrace(file.name, await file.text()),
            (r) =>
              `${r.records} records${r.problems.length ? `, ${r.problems.length} unreadable lines` : ""}`,
          );
        }}
      />
    </fieldset>
  );
}

function ViewButtons() {
  const theme = useInspector((s) => s.theme);
  const setTheme = useInspector((s) => s.setTheme);
  const largeText = useInspector((s) => s.largeText);
  const setLargeText = useInspector((s) => s.setLargeText);
  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Display</legend>
      <button
        type="button"
        aria-pressed={theme === "dark"}
        onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
      >
        Dark theme
      </button>
      <button type="button" aria-pressed={largeText} onClick={() => setLargeText(!largeText)}>
        Large text
      </button>
    </fieldset>
  );
}

/** The top toolbar. */
export function Toolbar() {
  const connected = useInspector((s) => s.connection === "connected");
  const notice = useInspector((s) => s.notice);
  return (
    <header className="toolbar">
      <span className="toolbar__title">ACP Retry Inspector</span>
      <ConnectionBadge />
      <FaultButtons disabled={!connected} />
      <SessionButtons disabled={!connected} />
      <TraceButtons disabled={!connected} />
      <ViewButtons />
      <output className="toolbar__notice" aria-live="polite">
        {notice ? <Badge tone={notice.tone === "error" ? "error" : "info"}>{notice.text}</Badge> : null}
      </output>
    </header>
  );
}
