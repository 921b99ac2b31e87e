/** Pause, clear, export (redacted unless asked) and import of the shown trace. */
import { Download, Eraser, FileCode, FolderOpen, Pause, Play } from "lucide-react";
import { useRef } from "react";
import { useOperation } from "../../model/bridge/use-operation.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { clearedWords } from "../../model/text/cleared-words.js";
import { importTraceFile } from "../../model/traces/import-trace.js";
import { savedPageExport } from "../../model/traces/saved-page-export.js";
import { exportTrace } from "../../model/traces/trace-export.js";
import { decodeLines, splitTraceText } from "../../model/traces/trace-file.js";
import { downloadText } from "../../model/traces/trace-files.js";
import { summarizeImport } from "../TraceDropZone.js";

/** The recording and trace-file group of the toolbar. */
export function TraceControls() {
  const ctx = useInspectorContext();
  const run = useOperation();
  const paused = useInspector((s) => s.paused);
  const setPaused = useInspector((s) => s.setPaused);
  const held = useInspector((s) => s.held);
  const traceId = useInspector((s) => s.traceId);
  const full = useInspector((s) => s.exportFull);
  const setFull = useInspector((s) => s.setExportFull);
  const fileInput = useRef<HTMLInputElement>(null);
  // A saved page shows one finished trace: nothing arrives, so nothing to pause.
  const saved = useInspector((s) => s.shell === "saved");

  const doExport = async (asPage = false) => {
    const session = traceId === undefined ? undefined : ctx.catalog.get(traceId);
    if (!session?.header) throw new Error("no trace to export yet");
    let records = session.records;
    if (session.source === "live") {
      // The hub's file is the complete trace (this window may have joined late or cleared).
      const split = splitTraceText((await ctx.bridge.readTrace({ id: session.id })).text);
      if (split.ok) records = decodeLines(split.lines, 0, split.lines.length).records;
    }
    const trace = exportTrace(session.label, session.header, records, full);
    const out = asPage ? await savedPageExport(trace, full) : trace;
    downloadText(document, out.fileName, out.text, asPage ? "text/html" : undefined);
    return out;
  };

  return (
    <fieldset className="toolbar__group">
      <legend className="visually-hidden">Recording and trace files</legend>
      <button
        type="button"
        className="button--icon"
        hidden={saved}
        aria-pressed={paused}
        aria-label={paused ? "Resume" : "Pause"}
        title="Freeze the view; new events wait and appear on Resume. The hub keeps recording."
        onClick={() => setPaused(!paused)}
      >
        {paused ? (
          <Play className="icon" aria-hidden="true" />
        ) : (
          <Pause className="icon" aria-hidden="true" />
        )}
      </button>
      {paused ? <span className="muted">{held} events waiting</span> : null}
      <button
        type="button"
        className="button--icon"
        disabled={traceId === undefined}
        aria-label="Clear"
        title="Clear: empty this view of the trace (new records still arrive); the trace file keeps everything."
        onClick={() => {
          const s = traceId === undefined ? undefined : ctx.catalog.get(traceId);
          if (!s) return;
          const records = s.records.length;
          s.clear();
          const state = ctx.store.getState();
          state.select(undefined);
          state.setLastClear({ traceId: s.id, records });
          state.setNotice({ tone: "info", text: clearedWords(records) });
          ctx.pump.push({ kind: "touch", traceId: s.id });
        }}
      >
        <Eraser className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        disabled={traceId === undefined}
        className="button--icon"
        aria-label="Export"
        title="Export: save the shown trace as a file (redacted unless Full trace is on)"
        onClick={() =>
          run(
            "Export",
            () => doExport(),
            (r) => `saved ${r.fileName}`,
          )
        }
      >
        <Download className="icon" aria-hidden="true" />
      </button>
      <button
        type="button"
        disabled={traceId === undefined}
        hidden={saved}
        className="button--icon"
        aria-label="Export as page"
        title="Export as page: one HTML file with the shown trace inside (redacted unless Full trace is on) that opens in any browser, offline, with no install"
        onClick={() =>
          run(
            "Export as page",
            () => doExport(true),
            (r) => `saved ${r.fileName}`,
          )
        }
      >
        <FileCode className="icon" aria-hidden="true" />
      </button>
      <label
        className="toolbar__check"
        title="Keep prompt text and file contents in the export. Off by default: exports are redacted so they are safe to share."
      >
        <input type="checkbox" checked={full} onChange={(e) => setFull(e.currentTarget.checked)} /> Full trace
      </label>
      <button
        type="button"
        className="button--icon"
        aria-label="Import…"
        title="Import…: open a trace file (.jsonl, HAR, …); dropping a file on the window works too"
        onClick={() => fileInput.current?.click()}
      >
        <FolderOpen className="icon" aria-hidden="true" />
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".jsonl,.ndjson,.json,.jsons,.har,application/x-ndjson,application/json,text/plain"
        aria-label="Import trace file"
        className="visually-hidden"
        tabIndex={-1}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (!file) return;
          void run(`Import ${file.name}`, () => importTraceFile(ctx, file), summarizeImport);
        }}
      />
    </fieldset>
  );
}
