/**
 * A test-only page that mounts SequenceView alone: it fetches `<name>.jsonl` (from `?trace=<name>`,
 * default `trace`) next to itself, runs the analyzer over it and shows the selected seq. The e2e
 * test (e2e/browser/sequence-view.spec.ts) builds it with Vite; the app never ships it.
 */
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { Analyzer } from "../../../../shared/analyzer/analyzer.js";
import type { TimelineModel } from "../../../../shared/analyzer/timeline-model.js";
import { decodeHeader, decodeRecord } from "../../../../shared/trace/codec.js";
import type { TraceRecord } from "../../../../shared/trace/record.js";
import { SequenceView } from "../SequenceView.js";
import "../../../kit/theme/theme.css";
import "../../../kit/theme/layout.css";
import "./preview.css";

interface Loaded {
  readonly model: TimelineModel;
  readonly records: readonly TraceRecord[];
}

function parseTrace(text: string): Loaded {
  const lines = text.split("\n").filter((l) => l.length > 0);
  const analyzer = new Analyzer();
  const records: TraceRecord[] = [];
  const first = decodeHeader(lines[0] ?? "");
  if (first.kind !== "header") throw new Error(first.kind === "problem" ? first.message : "no header");
  analyzer.ingestHeader(first.header);
  for (const line of lines.slice(1)) {
    const d = decodeRecord(line);
    if (d.kind !== "record") continue;
    records.push(d.record);
    analyzer.ingest(d.record);
  }
  return { model: analyzer.model(), records };
}

function Preview() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState("");
  const [selected, setSelected] = useState<number | null>(null);
  useEffect(() => {
    const name = new URLSearchParams(location.search).get("trace") ?? "trace";
    if (!/^[\w-]+$/.test(name)) {
      setProblem("bad trace name");
      return;
    }
    fetch(`./${name}.jsonl`)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((text) => setLoaded(parseTrace(text)))
      .catch((e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
  }, []);
  return (
    <div className="preview">
      <p role="status" aria-label="Selection">
        {problem || (selected === null ? "nothing selected" : `selected frame #${selected}`)}
      </p>
      {loaded && (
        <SequenceView
          model={loaded.model}
          records={loaded.records}
          selectedSeq={selected}
          onSelectSeq={setSelected}
        />
      )}
    </div>
  );
}

const root = document.getElementById("root");
if (!root) throw new Error("no #root");
createRoot(root).render(
  <StrictMode>
    <Preview />
  </StrictMode>,
);
