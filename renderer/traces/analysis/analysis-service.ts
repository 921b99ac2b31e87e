/**
 * The worker's side: an `Analyzer` over the lines the window read. The window posts the file's
 * bytes (or, converted from another format, its lines' text) and says how many entries it has
 * taken; the worker splits and decodes them as the window does (the first non-empty line of a
 * file's bytes is its header, then `decodeLines`: the same entries in the same order) and analyses
 * as many entries as the window has taken, no more, so each answer's rows are of exactly the
 * records the window holds.
 */
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { InvalidRecord } from "../../../shared/trace/record-check.js";
import { decodeLines } from "../trace-file.js";
import type { AnalysisPort, FromAnalysis, ToAnalysis } from "./analysis-wire.js";

type Entry = TraceRecord | InvalidRecord;

/** Entries analysed between two words to the window of how far the analysis is. */
const SAY_EVERY = 10_000;

/** Serves one trace's analysis on `port` (the worker's global scope, or a MessagePort in tests). */
export function serveAnalysis(port: AnalysisPort<ToAnalysis, FromAnalysis>): void {
  const analyzer = new Analyzer();
  let failure: string | undefined;
  const asks: { readonly ask: number; readonly count: number }[] = [];
  /** Lines not decoded yet, entries decoded and not analysed yet, how many the window has taken, how many are analysed. */
  const texts: string[][] = [];
  let entries: readonly Entry[] = [];
  let at = 0;
  let allowed = 0;
  let fed = 0;
  let said = 0;

  const answer = () => {
    const next = asks.shift();
    if (!next) return;
    port.postMessage(
      failure === undefined
        ? { t: "changes", ask: next.ask, changes: analyzer.takeChanges() }
        : { t: "failed", ask: next.ask, message: failure },
    );
  };

  /** Analyses up to what the window has taken (decoding texts as needed), answering asks as their counts are reached. */
  const settle = () => {
    try {
      while (failure === undefined && fed < allowed) {
        if (at === entries.length) {
          const lines = texts.shift();
          if (lines === undefined) break;
          entries = decodeLines(lines, 0, lines.length).entries;
          at = 0;
          continue;
        }
        const e = entries[at++] as Entry;
        if (e instanceof InvalidRecord) analyzer.ingestInvalid(e);
        else analyzer.ingest(e);
        fed++;
        if (asks[0]?.count === fed) answer();
      }
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    if (fed - said >= SAY_EVERY) {
      said = fed;
      port.postMessage({ t: "analysed", count: fed });
    }
    while (asks.length > 0) {
      const next = asks[0] as (typeof asks)[number];
      if (failure === undefined && next.count > fed) {
        // Short of the count with nothing left to decode: the texts gave fewer entries than the window took.
        if (texts.length > 0 || at < entries.length || next.count > allowed) break;
        failure = `the worker decoded ${fed} entries of the lines, the window ${next.count}`;
      }
      answer();
    }
  };

  /** A file's bytes: decoded as a stream, split at newlines, the header line left out. */
  const decoder = new TextDecoder();
  let carry = "";
  let header = false;
  const takeLines = (lines: string[]) => {
    let from = 0;
    while (!header && from < lines.length) if ((lines[from++] as string).trim() !== "") header = true;
    texts.push(from === 0 ? lines : lines.slice(from));
  };

  port.addEventListener("message", ({ data: m }) => {
    if (m.t === "header") {
      if (failure === undefined) analyzer.ingestHeader(m.header);
      return;
    }
    if (m.t === "lines") texts.push(m.text.split("\n"));
    else if (m.t === "bytes") {
      carry += decoder.decode(m.bytes, { stream: true });
      const nl = carry.lastIndexOf("\n");
      if (nl === -1) return;
      takeLines(carry.slice(0, nl).split("\n"));
      carry = carry.slice(nl + 1);
    } else if (m.t === "end") {
      takeLines(`${carry}${decoder.decode()}`.split("\n"));
      carry = "";
    } else if (m.t === "fed") allowed = Math.max(allowed, m.count);
    else {
      asks.push({ ask: m.ask, count: m.count });
      allowed = Math.max(allowed, m.count);
    }
    settle();
  });
}
