/** Accepts a trace file dropped anywhere on the window and imports it into this window. */
import { type DragEvent, type ReactNode, useState } from "react";
import { useOperation } from "../model/bridge/use-operation.js";
import { useInspectorContext } from "../model/store/inspector-store.js";
import { importTraceFile } from "../model/traces/import-trace.js";

const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes("Files");

/** Wraps the app; shows an overlay while a file is dragged over it. */
export function TraceDropZone({ children }: { children: ReactNode }) {
  const ctx = useInspectorContext();
  const run = useOperation();
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: drop target for files; Import… in the toolbar is the keyboard path.
    <div
      style={{ height: "100%" }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (!file) return;
        void run(`Import ${file.name}`, () => importTraceFile(ctx, file), summarizeImport);
      }}
    >
      {children}
      {over ? (
        <div className="drop-overlay" aria-hidden="true">
          Drop the trace file to import it
        </div>
      ) : null}
    </div>
  );
}

/** The notice after an import. */
export function summarizeImport(r: { records: number; problems: readonly string[] }): string {
  return `${r.records} records${r.problems.length ? `, ${r.problems.length} lines flagged as unreadable or invalid (${r.problems[0]})` : ""}`;
}
