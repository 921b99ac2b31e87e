import { readFileSync, statSync } from "node:fs";
import { encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import { convertToTrace } from "../../../shared/trace/interchange/convert.js";
import { describeImport, formatLabel } from "../../../shared/trace/interchange/describe.js";
import { type HarStyle, traceToHar } from "../../../shared/trace/interchange/har.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { PrivateFileError, writePrivateFile } from "../../trace/private-files.js";
import { type CliCommand, CliError } from "../command.js";
import { parseCommandArgs } from "../command-args.js";

const HELP = `Usage: acp-retry-inspector convert FILE --to trace|har [--har-style websocket|http] [-o FILE]

Converts between our trace format and the formats other tools write, either way. FILE's format is
detected from its content, not its name: an acp-retry-inspector trace, a Zed ACP log ("Copy All"),
a sacp/symposium conductor trace (.jsons), a venikman/ACP-inspector JSONL recording, a HAR
(Chrome DevTools: WebSocket frames in _webSocketMessages, or Streamable HTTP POST bodies and their
JSON or text/event-stream answers), or an acp-devtools session export (JSON). What each source
lacks (Zed's log has no timestamps, ...) is written into the trace header's "imported" field and said on stderr. See docs/interchange.md.

Options:
  --to trace          write our trace format (JSON Lines): what analyze and the app read
  --to har            write a HAR 1.2 file; every frame keeps its bytes and order, and converting it
                      back with --to trace gives the same records
  --har-style STYLE   websocket (default): one entry per connection with _webSocketMessages;
                      http: Streamable HTTP entries, each client frame a POST, the agent frames after
                      it in its text/event-stream answer
  -o, --output FILE   write to FILE instead of stdout: created with mode 0600, and only if nothing
                      exists there yet (an existing file or symbolic link is never replaced or followed)

Written to stdout, the output is terminal safe (the few characters JSON leaves raw that a terminal
acts on are \\u-escaped); to FILE, byte for byte. Entries of FILE that are not frames are kept as
"note" records and counted on stderr.

Exit status: 0 written, 1 the output could not be written, 2 usage error, an existing output FILE,
or an unreadable or unsupported FILE.

Examples:
  acp-retry-inspector convert zed-acp-log.json --to trace -o zed.trace.jsonl
  acp-retry-inspector convert session.trace.jsonl --to har -o session.har`;

interface ConvertArgs {
  readonly file: string;
  readonly to: "trace" | "har";
  readonly style: HarStyle;
  readonly output?: string;
}

function parseConvertArgs(args: readonly string[]): ConvertArgs {
  const { values, positionals: files } = parseCommandArgs(
    "convert",
    HELP,
    args,
    { to: { type: "string" }, "har-style": { type: "string" }, output: { type: "string", short: "o" } },
    { output: "a file path" },
  );
  const { to, "har-style": style, output } = values;
  const file = files[0];
  if (file === undefined || files.length > 1)
    throw new CliError(`convert: expected exactly one FILE\n\n${HELP}`);
  if (to !== "trace" && to !== "har") throw new CliError(`convert: --to must be trace or har\n\n${HELP}`);
  if (style !== undefined && style !== "websocket" && style !== "http")
    throw new CliError(`convert: --har-style must be websocket or http\n\n${HELP}`);
  if (style !== undefined && to !== "har")
    throw new CliError(`convert: --har-style goes with --to har\n\n${HELP}`);
  return { file, to, style: (style as HarStyle | undefined) ?? "websocket", output };
}

function say(message: string): void {
  process.stderr.write(`acp-retry-inspector: convert: ${terminalSafe(message)}\n`);
}

function readInput(path: string): string {
  try {
    if (statSync(path).isDirectory()) throw new CliError(`cannot read ${path}: EISDIR`, 2);
    return readFileSync(path, "utf8");
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 2);
  }
}

/** `acp-retry-inspector convert FILE --to trace|har`: our trace to and from other tools' formats. */
export const convertCommand: CliCommand = {
  name: "convert",
  summary: "convert a Zed ACP log, sacp trace, ACP-inspector JSONL or HAR to a trace, or a trace to HAR",
  help: HELP,
  async run(args) {
    const { file, to, style, output } = parseConvertArgs(args);
    const r = convertToTrace(readInput(file));
    if ("error" in r)
      throw new CliError(`convert: ${file}: not a trace file or a supported import: ${r.error}`, 2);
    say(`${file}: ${formatLabel(r.format)}, ${r.records.length} records`);
    if (r.header.imported && r.format !== "acp-retry-inspector-trace") say(describeImport(r.header.imported));
    if (r.problems.length > 0)
      say(`${r.problems.length} entries were not frames and are kept as notes (first: ${r.problems[0]})`);
    const toFile = output !== undefined;
    let text: string;
    if (to === "trace") {
      text = toFile
        ? encodeHeader(r.header) + r.records.map(encodeRecord).join("")
        : `${terminalSafeJson(r.header)}\n${r.records.map((x) => `${terminalSafeJson(x)}\n`).join("")}`;
    } else {
      const har = traceToHar(r.header, r.records, style);
      text = toFile ? `${JSON.stringify(har, null, 2)}\n` : `${terminalSafeJson(har, 2)}\n`;
    }
    if (!toFile) {
      process.stdout.write(text);
      return 0;
    }
    try {
      writePrivateFile(output, text);
    } catch (err) {
      if (err instanceof PrivateFileError)
        throw new CliError(`convert: ${err.message}`, err.code === "EEXIST" ? 2 : 1);
      throw err;
    }
    say(`wrote ${output}`);
    return 0;
  },
};
