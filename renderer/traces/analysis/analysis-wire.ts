/** The messages between a window and its analysis worker (structured-cloned, in order). */
import type { TimelineChanges } from "../../../shared/analyzer/timeline-model.js";
import type { TraceHeader } from "../../../shared/trace/record.js";

/** Window to worker. */
export type ToAnalysis =
  | { readonly t: "header"; readonly header: TraceHeader }
  /**
   * The next lines of the file as the window read them (joined by newlines): the worker decodes
   * them as the window does (`decodeLines`), one entry per record or invalid line.
   */
  | { readonly t: "lines"; readonly text: string }
  /**
   * The next bytes of a file of our own format, from its first byte (header line included), as the
   * window read them (transferred, not copied): the worker decodes and splits them as the window does.
   */
  | { readonly t: "bytes"; readonly bytes: Uint8Array }
  /** The file's bytes have all come: what is left after its last newline is its last line. */
  | { readonly t: "end" }
  /** The window has taken `count` of those entries so far: the worker may analyse that many. */
  | { readonly t: "fed"; readonly count: number }
  /** Asks for the rows changed since the last ask, with exactly the first `count` entries analysed. */
  | { readonly t: "take"; readonly ask: number; readonly count: number };

/** Worker to window: how far the analysis is, or the answer to ask `ask`. */
export type FromAnalysis =
  /** The first `count` entries are analysed (the window reads on while the worker is not too far behind). */
  | { readonly t: "analysed"; readonly count: number }
  | { readonly t: "changes"; readonly ask: number; readonly changes: TimelineChanges }
  /** The analysis cannot go on (the analyzer threw, the lines gave fewer entries): the window analyses the trace itself. */
  | { readonly t: "failed"; readonly ask: number; readonly message: string };

/** The side of a message channel one end uses (a Worker, a worker's global scope, a MessagePort). */
export interface AnalysisPort<In, Out> {
  postMessage(message: Out, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: { readonly data: In }) => void): void;
}
