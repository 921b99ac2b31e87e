import { parseArgs } from "node:util";
import type { FrameSchemaReport, SchemaCheckSummary } from "../../../shared/schema/schema-report.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { checkTraceFile } from "../../schema/check-trace-file.js";
import { schemaCheckText } from "../../schema/schema-report-text.js";
import { TraceReadError } from "../../trace/trace-reader.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";

const HELP = `Usage: acp-retry-inspector validate TRACE... [--json] [--extensions]

Checks every frame of each trace against the official ACP JSON Schema that @agentclientprotocol/sdk
ships (v1 or v2, chosen per connection by the protocolVersion its initialize negotiated; v1 when
no initialize was seen, and the output says so). Each frame is matched to its schema type by method
and direction: request params, the result of the request it answers, notification params, or the
error object. The v2 schema is extended with the RFD's session/prompt idempotencyKey (a string of 1
to 255 characters counted in Unicode code points, or null), and the output says so.

Extension fields (_meta, and properties the schema does not declare) are marked, never failed.
A frame nested deeper than 512 is not walked; it is listed as not checked.

Options:
  --json         print {files: [{file, reports, summary}], exitStatus} as JSON
  --extensions   also list the frames that only carry extension fields (text output)

Exit status: 0 no frame breaks the schema, 1 at least one violation, 2 usage error or
unreadable trace file.

Example:
  acp-retry-inspector validate session.trace.jsonl`;

/** `acp-retry-inspector validate TRACE...`: every frame against the official ACP schema; exit 1 on violations. */
export const validateCommand: CliCommand = {
  name: "validate",
  summary: "check every frame of a trace against the official ACP schema (v1/v2); exit 1 on violations",
  help: HELP,
  async run(args) {
    let parsed: { values: { json?: boolean; extensions?: boolean }; positionals: string[] };
    try {
      parsed = parseArgs({
        args,
        options: { json: { type: "boolean" }, extensions: { type: "boolean" } },
        strict: true,
        allowPositionals: true,
      });
    } catch (err) {
      throw usageError("validate", err, args, HELP);
    }
    const files = parsed.positionals;
    if (files.length === 0) throw new CliError(`validate: expected at least one TRACE file\n\n${HELP}`);
    const results: { file: string; reports: FrameSchemaReport[]; summary: SchemaCheckSummary }[] = [];
    for (const file of files) {
      try {
        results.push({ file, ...(await checkTraceFile(file)) });
      } catch (err) {
        if (err instanceof TraceReadError) throw new CliError(err.message, 2);
        throw err;
      }
    }
    const exitStatus = results.some((r) => r.summary.framesWithViolations > 0) ? 1 : 0;
    if (parsed.values.json) process.stdout.write(`${terminalSafeJson({ files: results, exitStatus }, 2)}\n`);
    else
      for (const r of results)
        process.stdout.write(
          schemaCheckText(terminalSafe(r.file), r.reports, r.summary, parsed.values.extensions === true),
        );
    return exitStatus;
  },
};
