import { once } from "node:events";
import { createWriteStream, rmSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { Writable } from "node:stream";
import { encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { promptKey, TraceRedactor } from "../../../shared/trace/redact.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { createPrivateFile, PrivateFileError } from "../../trace/private-files.js";
import { MAX_LINE_BYTES, readTrace, TraceReadError } from "../../trace/trace-reader.js";
import { type CliCommand, CliError } from "../command.js";
import { parseCommandArgs } from "../command-args.js";
import { readSavedPageApp, savedPage } from "./export-html.js";

const HELP = `Usage: acp-retry-inspector export TRACE [-o FILE] [--full] [--html]

Writes a trace file for sharing, redacted by default: prompt text, message content, file contents,
terminal output and agent stderr become placeholders that state their length, and so do
credentials: fields named like a secret (Authorization, apiKey, x-api-key, *_TOKEN, password,
cookie ...), MCP server header and env values (session/new, session/resume), URL userinfo and
query values, Bearer and Basic credentials in text, secret options in the agent's argv. Ids,
idempotency keys, methods, sessionIds and the JSON structure stay, so analyze gives the same
verdicts on the export. Every rule: docs/redaction.md. The app's export button redacts the same way.

Options:
  -o, --output FILE   write to FILE instead of stdout: created with mode 0600, and only if nothing
                      exists there yet (an existing file or symbolic link is never replaced or followed)
  --full              export everything as recorded, prompts, files and credentials included: only
                      for someone who may see all of it
  --html              write one self-contained HTML page instead: the app with the (redacted) trace
                      inside, which opens in any browser from the file, with no network access, no
                      hub and no token (its Content-Security-Policy allows only its own inlined
                      script and styles). Not written to a terminal: give -o FILE or redirect

TRACE is read as analyze reads it: an unreadable line (a half-written last line, when the tap was
killed mid-write, or a line over the reader's 256 MiB cap) is left out, reported on stderr by its
line number (never its text) and listed in a closing "note" record of the export. Written to stdout, lines are terminal safe (the few
characters JSON leaves raw that a terminal acts on are \\u-escaped); to FILE, byte for byte.

Exit status: 0 written, 1 the output could not be written (a partly written FILE is removed),
2 usage error, an existing FILE, or an unreadable TRACE.

Examples:
  acp-retry-inspector export session.jsonl -o session-redacted.jsonl
  acp-retry-inspector export session.jsonl | gzip > session-redacted.jsonl.gz
  acp-retry-inspector export session.jsonl --html -o session.html`;

/** Lines buffered before one write. */
const CHUNK_CHARS = 256 * 1024;
/** Unreadable lines named one by one on stderr; the rest are counted. */
const LISTED_PROBLEMS = 20;

interface ExportArgs {
  readonly trace: string;
  readonly output?: string;
  readonly full: boolean;
  readonly html: boolean;
}

function parseExportArgs(args: readonly string[]): ExportArgs {
  const { values, positionals: files } = parseCommandArgs(
    "export",
    HELP,
    args,
    { output: { type: "string", short: "o" }, full: { type: "boolean" }, html: { type: "boolean" } },
    { output: "a file path" },
  );
  const { output } = values;
  const full = values.full === true;
  const html = values.html === true;
  const trace = files[0];
  if (trace === undefined || files.length > 1)
    throw new CliError(`export: expected exactly one TRACE file\n\n${HELP}`);
  return { trace, output, full, html };
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector: export: ${terminalSafe(message)}\n`);
}

/** The trace's size now: both passes read exactly these bytes, even if a tap is still appending. */
function traceSize(path: string): number {
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) throw new CliError(`cannot read trace file ${path}: EISDIR`, 2);
    return stats.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read trace file ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`, 2);
  }
}

/** Pass 1: the idempotency keys of the trace (redaction keeps them visible); also proves it is a trace. */
async function collectKeys(path: string, bytes: number, full: boolean): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const ev of readTrace(path, { bytes })) {
    // For --full only the header needs checking before the output is created.
    if (full) break;
    if (ev.kind === "record") {
      const key = promptKey(ev.record);
      if (key !== undefined) keys.add(key);
    }
  }
  return keys;
}

/** Writes text with backpressure; rejects with the stream's error. */
class LineSink {
  private chunk = "";
  private failure: Error | null = null;

  constructor(private readonly out: Writable) {
    out.on("error", (err: Error) => {
      this.failure ??= err;
    });
  }

  async add(line: string): Promise<void> {
    this.chunk += line;
    if (this.chunk.length >= CHUNK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    this.check();
    const text = this.chunk;
    this.chunk = "";
    // `once` rejects on the stream's `error` and removes its own listener when `drain` comes; a
    // second `once(out, "error")` here would stay behind on every drain (MaxListenersExceededWarning).
    if (text !== "" && !this.out.write(text)) await once(this.out, "drain");
    this.check();
  }

  /** Flushes and waits until everything reached the file (or stdout's pipe). */
  async end(closeStream: boolean): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (closeStream) {
        this.out.once("error", done);
        this.out.end(() => done(this.failure));
      } else this.out.write("", done);
    });
    this.check();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}

/** `acp-retry-inspector export TRACE [-o FILE] [--full]`: a trace to share, redacted by default. */
export const exportCommand: CliCommand = {
  name: "export",
  summary: "write a trace for sharing, redacted by default (content and credentials replaced)",
  help: HELP,
  async run(args) {
    const { trace, output, full, html } = parseExportArgs(args);
    if (html && output === undefined && process.stdout.isTTY)
      throw new CliError(
        "export --html writes a page, not text for a terminal: give -o FILE or redirect stdout",
        2,
      );
    const bytes = traceSize(trace);
    // The page's parts are read before anything is written, so a missing build leaves no file.
    const app = html ? readSavedPageApp() : undefined;
    let keys: Set<string>;
    try {
      keys = await collectKeys(trace, bytes, full);
    } catch (err) {
      if (err instanceof TraceReadError) throw new CliError(err.message, 2);
      throw err;
    }
    let out: Writable = process.stdout;
    if (output !== undefined) {
      try {
        out = createWriteStream(output, { fd: createPrivateFile(output) });
      } catch (err) {
        if (err instanceof PrivateFileError)
          throw new CliError(`export: ${err.message}`, err.code === "EEXIST" ? 2 : 1);
        throw err;
      }
    }
    // A file (or a page) gets the exact bytes of each line; stdout may be a terminal, so it gets terminal-safe JSON.
    const line =
      output !== undefined || html
        ? { header: encodeHeader, record: encodeRecord }
        : {
            header: (h: TraceHeader) => `${terminalSafeJson(h)}\n`,
            record: (r: TraceRecord) => `${terminalSafeJson(r)}\n`,
          };
    const redactor = full ? null : new TraceRedactor(keys);
    const fileSink = new LineSink(out);
    // A page holds the whole trace text: the lines are gathered, then the page is written at once.
    const gathered: string[] = [];
    const sink = app ? { add: async (text: string) => void gathered.push(text) } : fileSink;
    const problems: { line: number; truncated: boolean; oversize?: number }[] = [];
    let records = 0;
    let lastSeq = 0;
    let lastTs = 0;
    try {
      for await (const ev of readTrace(trace, { bytes })) {
        if (ev.kind === "header")
          await sink.add(line.header(redactor ? redactor.header(ev.header) : ev.header));
        else if (ev.kind === "record") {
          records++;
          lastSeq = Math.max(lastSeq, ev.record.seq);
          lastTs = Math.max(lastTs, ev.record.ts);
          await sink.add(line.record(redactor ? redactor.record(ev.record) : ev.record));
        } else
          problems.push({
            line: ev.line,
            truncated: ev.truncated,
            ...(ev.kind === "problem" && ev.oversize !== undefined && { oversize: ev.oversize }),
          });
      }
      if (problems.length > 0) {
        const listed = problems.map(
          (p) =>
            `line ${p.line}${p.oversize !== undefined ? ` (${p.oversize} bytes, over the reader's cap)` : ""}${p.truncated ? " (truncated last line)" : ""}`,
        );
        const note: TraceRecord = {
          seq: lastSeq + 1,
          ts: lastTs,
          type: "note",
          level: "warn",
          text: `export: ${problems.length} unreadable line(s) of the original trace were left out: ${listed.join(", ")}`,
        };
        await sink.add(line.record(note));
      }
      if (app) {
        const page = await savedPage(app, {
          name: basename(trace),
          text: gathered.join(""),
          savedAt: new Date().toISOString(),
          content: full ? "full" : "redacted",
        });
        gathered.length = 0;
        await fileSink.add(page);
      }
      await fileSink.end(output !== undefined);
    } catch (err) {
      if (output !== undefined) {
        out.destroy();
        rmSync(output, { force: true });
      }
      if (err instanceof TraceReadError) throw new CliError(err.message, 2);
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(
        `export: cannot write ${output ?? "to stdout"}: ${code ? `${code} ` : ""}${(err as Error).message}`,
        1,
      );
    }
    for (const p of problems.slice(0, LISTED_PROBLEMS)) {
      say(
        p.oversize !== undefined
          ? `line ${p.line} of ${trace} is ${p.oversize} bytes, over the reader's ${MAX_LINE_BYTES}-byte cap: left out unread`
          : p.truncated
            ? `the last line (${p.line}) of ${trace} is half-written (a tap killed mid-write): left out, every record before it exported`
            : `line ${p.line} of ${trace} is not a readable record: left out`,
      );
    }
    if (problems.length > LISTED_PROBLEMS)
      say(`and ${problems.length - LISTED_PROBLEMS} more unreadable line(s)`);
    if (full) say("--full: the export holds every prompt, file and credential of the trace");
    if (output !== undefined)
      say(
        `wrote ${records} record(s) to ${output} (${full ? "full" : "redacted"}${html ? ", as a self-contained page" : ""})`,
      );
    return 0;
  },
};
