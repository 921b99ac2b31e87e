/**
 * Imports a trace file into this window: decoded a slice of lines at a time and fed through the
 * same pump as live events (so each slice is analyzed on the next animation frame). A file of our
 * own format is read as a stream (`importTraceFile`), so the first rows are on screen after its
 * first lines, long before the last one is read, and the whole text is never held at once. While a
 * file loads, its rows are published for the first slice, then at most once a second (less often
 * as it goes on, and not just before the end), and at the end: the analysis runs at full speed
 * instead of re-rendering the growing table every frame. The progress bar moves every second.
 */
import { decodeHeader, encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import type { LineConversion } from "../../../shared/trace/interchange/conversion.js";
import { lineConversion } from "../../../shared/trace/interchange/convert.js";
import { detectFormat } from "../../../shared/trace/interchange/detect.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import type { InvalidRecord } from "../../../shared/trace/record-check.js";
import type { InspectorContextValue } from "../store/inspector-store.js";
import { type TextChunks, textChunks } from "./file-bytes.js";
import { asTraceText } from "./foreign-file.js";
import type { LoadedTrace } from "./loaded-trace.js";
import { decodeLines, LineSplitter, splitTraceText } from "./trace-file.js";

/** Lines in the first slice: few, so the first rows show at once. */
const FIRST_LINES = 2_000;
/** Lines decoded between two looks at the clock. */
const STEP_LINES = 2_000;
/** How long one task decodes before it lets the window paint and the pump analyze what it got. */
const SLICE_MS = 40;
/**
 * While a file loads, its rows are published at most every second, and less often as the import
 * goes on (half the time it has taken so far), as each publish re-renders a growing table; the first
 * slice and the end are always published, and a publish that would come less than that interval
 * before the end (at the pace so far) is left to the end's. The progress bar alone moves every
 * second between them.
 */
const PUBLISH_EVERY_MS = 1_000;
const PUBLISH_SHARE = 0.5;
const PROGRESS_EVERY_MS = 1_000;

/** What an import found. */
export interface ImportResult {
  readonly traceId: string;
  readonly records: number;
  readonly problems: readonly string[];
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** One import in progress: decodes lines in order and queues them on the pump in time slices. */
class ImportRun {
  readonly problems: string[] = [];
  records = 0;
  /** Index of the next line after the header (line numbers in messages are this + 2). */
  private line = 0;
  private queued: (TraceRecord | InvalidRecord)[] = [];
  private readonly startedAt = performance.now();
  private sliceStart = this.startedAt;
  private publishedAt = Number.NEGATIVE_INFINITY;
  private progressAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: InspectorContextValue,
    private readonly loaded: LoadedTrace,
    private readonly fileName: string,
  ) {}

  /**
   * Decodes `lines` (the next lines of the file), queuing them and yielding as the slices fill;
   * `done(n)` is the progress (out of `total`) once the first `n` of them are decoded.
   */
  async take(lines: readonly string[], done: (n: number) => number, total: number): Promise<void> {
    const base = this.line;
    this.line += lines.length;
    for (let from = 0; from < lines.length; ) {
      const first = this.publishedAt === Number.NEGATIVE_INFINITY;
      const to = Math.min(lines.length, from + (first ? FIRST_LINES - this.queued.length : STEP_LINES));
      const chunk = decodeLines(lines, from, to, base);
      from = to;
      this.problems.push(...chunk.problems);
      this.records += chunk.records.length;
      for (const e of chunk.entries) this.queued.push(e);
      if (first ? this.queued.length >= FIRST_LINES : performance.now() - this.sliceStart >= SLICE_MS) {
        this.flush({ done: Math.min(done(from), total - 1), total });
        await nextFrame();
        this.sliceStart = performance.now();
      }
    }
  }

  /** Queues what is decoded, publishing the rows when it is time; `progress` undefined: the import is done. */
  flush(progress: { done: number; total: number } | undefined): void {
    const now = performance.now();
    const took = now - this.startedAt;
    const every = Math.max(PUBLISH_EVERY_MS, took * PUBLISH_SHARE);
    // A publish due less than an interval before the end (by the pace so far) is left to the end's.
    const left = progress ? (took * (progress.total - progress.done)) / Math.max(1, progress.done) : 0;
    const publish =
      progress === undefined ||
      this.publishedAt === Number.NEGATIVE_INFINITY ||
      (now - this.publishedAt >= every && left >= every);
    if (publish) this.publishedAt = now;
    const moveBar = publish || now - this.progressAt >= PROGRESS_EVERY_MS;
    if (moveBar) this.progressAt = now;
    const records = this.queued;
    this.queued = [];
    this.ctx.pump.push({
      kind: "import",
      traceId: this.loaded.id,
      records,
      progress: progress && { traceId: this.loaded.id, fileName: this.fileName, ...progress },
      publish,
      ...(!publish && moveBar && { progressOnly: true }),
    });
  }

  /** Queues the last records; resolves once they are analysed and their rows are shown. */
  async finish(): Promise<ImportResult> {
    this.flush(undefined);
    await this.loaded.whenImported();
    return { traceId: this.loaded.id, records: this.records, problems: this.problems };
  }
}

/**
 * Imports `text` as a new trace named `fileName`, shows it, and resolves once every record is in
 * and its rows are shown.
 */
export async function importTraceText(
  ctx: InspectorContextValue,
  fileName: string,
  text: string,
): Promise<ImportResult> {
  // Another tool's file is converted to our trace text first (its conversion problems are kept as
  // note records and listed); then it takes the same path as our own files.
  const converted = asTraceText(text);
  if ("error" in converted)
    throw new Error(`${fileName} is not a trace file or a supported import: ${converted.error}`);
  const split = splitTraceText(converted.text);
  if (!split.ok) throw new Error(`${fileName} is not a trace file: ${split.problem}`);
  const loaded = ctx.catalog.addImported(fileName, split.header);
  ctx.store.getState().selectTrace(loaded.id);
  const run = new ImportRun(ctx, loaded, fileName);
  run.problems.push(...converted.problems);
  await run.take(split.lines, (n) => n, split.lines.length);
  return run.finish();
}

/**
 * Imports a file: one of our trace files is read as a stream of lines; any other file (another
 * tool's format, an empty or broken one) is read whole and takes `importTraceText`'s path, with
 * the same results and messages.
 */
export async function importTraceFile(
  ctx: InspectorContextValue,
  file: Pick<File, "name" | "size" | "stream">,
): Promise<ImportResult> {
  const reader = textChunks(file);
  const whole: string[] = [];
  // One splitter cuts the whole file: the lines before the header's, then the rest.
  const splitter = new LineSplitter();
  let read = 0;
  // Until the first non-empty line is complete: is it our header?
  const lines: string[] = [];
  let at = -1;
  while (at === -1) {
    const { value, done } = await reader.read();
    if (done) break;
    whole.push(value);
    read += value.length;
    for (const line of splitter.push(value)) lines.push(line);
    at = lines.findIndex((line) => line.trim() !== "");
  }
  const headLine = lines[at];
  const head = headLine === undefined ? undefined : decodeHeader(headLine);
  if (headLine === undefined || head?.kind !== "header") {
    // Another tool's file of one JSON object per line (sacp, ACP-inspector) is converted as it is
    // read, like our own; the others (Zed's array, HAR) are parsed whole.
    const detected = headLine === undefined ? null : detectFormat(headLine);
    const conversion = detected && "format" in detected ? lineConversion(detected.format) : null;
    if (conversion) return importForeignLines(ctx, file, { reader, splitter, lines, read }, conversion);
    for (let r = await reader.read(); !r.done; r = await reader.read()) whole.push(r.value);
    return importTraceText(ctx, file.name, whole.join(""));
  }
  whole.length = 0;
  const loaded = ctx.catalog.addImported(file.name, head.header);
  ctx.store.getState().selectTrace(loaded.id);
  const run = new ImportRun(ctx, loaded, file.name);
  // Progress: characters read against the file's bytes (the same for ASCII, close enough else).
  const total = Math.max(1, file.size);
  const progress = () => read;
  await run.take(lines.slice(at + 1), progress, total);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    read += value.length;
    const lines = splitter.push(value);
    if (lines.length > 0) await run.take(lines, progress, total);
  }
  await run.take([splitter.end()], progress, total);
  return run.finish();
}

/**
 * Imports a line-based foreign file as a stream: each slice of lines is converted (`conversion`),
 * its records encoded as our trace lines and taken the way our own file's lines are, so the
 * results, records and problems are those of reading the whole text (`importTraceText`), without
 * ever holding the whole text, its conversion and its trace text at once.
 */
async function importForeignLines(
  ctx: InspectorContextValue,
  file: Pick<File, "name" | "size">,
  source: {
    readonly reader: TextChunks;
    readonly splitter: LineSplitter;
    /** The lines cut so far. */
    readonly lines: readonly string[];
    /** Characters read so far. */
    readonly read: number;
  },
  conversion: LineConversion,
): Promise<ImportResult> {
  const { reader, splitter } = source;
  const total = Math.max(1, file.size);
  let read = source.read;
  const progress = () => read;
  let lineNo = 0;
  let run: ImportRun | null = null;
  /** Records converted before the header could be given (an ACP-inspector file's first time). */
  let early: string[] = [];
  const feed = async (lines: readonly string[], last: boolean) => {
    for (const l of lines) conversion.line(l, ++lineNo);
    const { records, problems } = conversion.builder.take();
    const encoded = records.map((r) => encodeRecord(r).replace(/\n$/, ""));
    if (!run) {
      early.push(...encoded);
      if (!conversion.ready && !last) {
        earlyProblems.push(...problems);
        return;
      }
      // The header goes through the decoder, as a whole-text import's does.
      const head = decodeHeader(encodeHeader(conversion.header()).trim());
      if (head.kind !== "header") throw new Error(`${file.name}: cannot convert its header`);
      const loaded = ctx.catalog.addImported(file.name, head.header);
      ctx.store.getState().selectTrace(loaded.id);
      run = new ImportRun(ctx, loaded, file.name);
      run.problems.push(...earlyProblems, ...problems);
      const first = early;
      early = [];
      await run.take(first, progress, total);
      return;
    }
    run.problems.push(...problems);
    await run.take(encoded, progress, total);
  };
  const earlyProblems: string[] = [];
  await feed(source.lines, false);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    read += value.length;
    const lines = splitter.push(value);
    if (lines.length > 0) await feed(lines, false);
  }
  await feed([splitter.end()], true);
  const finished = run as ImportRun | null;
  if (!finished) throw new Error(`${file.name}: nothing to import`);
  return finished.finish();
}
