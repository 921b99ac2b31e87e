import { latencyReport } from "../../../shared/analyzer/latency.js";
import { VERDICTS } from "../../../shared/analyzer/verdicts.js";
import { terminalSafeJsonChunks } from "../../platform/terminal-text.js";
import { schemaCheckText, schemaSummaryText } from "../../schema/schema-report-text.js";
import { DEFAULT_COUNT_FRAMES, TraceSchemaCheck } from "../../schema/trace-schema-check.js";
import { analyzeTraceFile } from "../../trace/analyze-trace-file.js";
import { TraceReadError } from "../../trace/trace-reader.js";
import { type CliCommand, CliError } from "../command.js";
import { parseCommandArgs } from "../command-args.js";
import { latencyLines } from "../report/latency-text.js";
import { modelWarnings, renderReport } from "../report/report-text.js";

const HELP = `Usage: acp-retry-inspector analyze TRACE [--json] [--fail-on-client-issues] [--schema | --no-schema]

Reads a trace file written by the proxy, groups session/prompt attempts into submissions by
(sessionId, idempotencyKey) and judges them against the ACP v2 "Idempotency Keys" RFD.
TRACE may also be a file another tool wrote, detected from its content and converted first: a Zed
ACP log ("Copy All"), a sacp/symposium .jsons trace, an ACP-inspector JSONL recording or a HAR
(WebSocket or Streamable HTTP). The report then says what that source lacks (docs/interchange.md).

Options:
  --json                    print the timeline model as JSON instead of the text report
  --fail-on-client-issues   exit 1 also when only Client issues were found
  --schema                  list every frame that breaks the official ACP schema (seq, direction, method,
                            JSON path, what the schema says), as validate does
  --no-schema               skip the schema check

The first 20,000 frames are checked against the official ACP schema (v1 or v2 as negotiated; v2 with
the RFD's idempotencyKey) and the report ends with one "Schema check" line: how many break it, and how
many later frames were not checked. Checking costs about twice the analysis per frame (the analyzer
bench measures it), so every frame, and the list of them, takes --schema. In --json: "schema" (the
counts, "framesPastBound" when the bound cut the check; with --schema also "frames"). It never
changes the exit status.

After the other requests, "Latency per method": p50/p95/p99/max of the time from each request to
its answer as the tap recorded them (session/prompt included: v2 answers at insertion, v1 at the end
of the turn), per method and per connection (--json: "latency"). An answer the inspector dropped
counts (it is the agent's time) and is counted apart, since the client never got it; so are the
inspector's own requests; requests with no answer have no latency and are only counted.

Each attempt says what happened to it and what the Client saw (the same words as --json's
"words" and the app). A v1 session is judged by v1: its notes (severity "info") never change the
exit status.
Every record is checked as it is read: an invalid record (a field of the wrong type, say a raw
that is not a string) is listed under "Invalid records" and not analysed, and records whose seq
repeats or goes back are left out with a warning naming their seqs (in --json: "invalid",
"seqIssues" and "warnings"). Seqs skipped (records missing from the file: a hub copy whose tap
dropped records under backlog says so in a note, which the warning quotes) are a warning too
("seqGaps"). A line over the reader's 256 MiB cap is listed under "Unreadable trace lines" by its
number and length, never read whole.

Exit status: 0 no Agent violation, 1 at least one Agent violation (verdict severity "violation"),
2 usage error or unreadable trace file.

Example:
  acp-retry-inspector analyze session.trace.jsonl --json > timeline.json`;

/** `acp-retry-inspector analyze TRACE [--json]`: the timeline and verdicts of a recorded trace. */
export const analyzeCommand: CliCommand = {
  name: "analyze",
  summary: "judge a recorded trace: submissions, attempts, outcomes and RFD verdicts",
  help: HELP,
  async run(args) {
    const { values, positionals: files } = parseCommandArgs("analyze", HELP, args, {
      json: { type: "boolean" },
      "fail-on-client-issues": { type: "boolean" },
      schema: { type: "boolean" },
      "no-schema": { type: "boolean" },
    });
    const json = values.json === true;
    const failOnClientIssues = values["fail-on-client-issues"] === true;
    const schemaMode = values["no-schema"] ? "off" : values.schema ? "list" : "count";
    const file = files[0];
    if (file === undefined || files.length > 1)
      throw new CliError(`analyze: expected exactly one TRACE file\n\n${HELP}`);
    const schema =
      schemaMode === "off"
        ? null
        : new TraceSchemaCheck(schemaMode, schemaMode === "count" ? DEFAULT_COUNT_FRAMES : undefined);
    let result: Awaited<ReturnType<typeof analyzeTraceFile>>;
    try {
      const check = schema;
      result = await analyzeTraceFile(file, check ? { observe: (r, parsed) => check.ingest(r, parsed) } : {});
    } catch (err) {
      if (err instanceof TraceReadError) throw new CliError(err.message, 2);
      throw err;
    }
    const { model, notes: traceNotes } = result;
    const gaps = result.gaps.result();
    const count = (severity: string) =>
      VERDICTS.filter((v) => v.severity === severity).reduce((n, v) => n + model.verdictCounts[v.name], 0);
    const violations = count("violation");
    const clientIssues = count("client-issue");
    const notes = count("info");
    const exitStatus = violations > 0 || (failOnClientIssues && clientIssues > 0) ? 1 : 0;
    const latency = latencyReport(model);
    if (json) {
      const warnings = modelWarnings(model, gaps);
      const doc = {
        file,
        ...model,
        traceNotes,
        latency,
        ...(gaps.gaps > 0 && { seqGaps: gaps }),
        summary: { violations, clientIssues, notes, exitStatus },
        ...(schema && {
          schema: {
            ...schema.summary(),
            listed: schema.detail === "list",
            ...(schema.detail === "list" && { frames: schema.reports }),
          },
        }),
        ...(warnings.length > 0 && { warnings }),
      };
      // written in pieces: the JSON of a trace of millions of frames is longer than a string can be
      let pending = "";
      for (const chunk of terminalSafeJsonChunks(doc, 2)) {
        pending += chunk;
        if (pending.length >= 1 << 16) {
          process.stdout.write(pending);
          pending = "";
        }
      }
      process.stdout.write(`${pending}\n`);
    } else {
      process.stdout.write(renderReport(file, model, traceNotes, gaps, latencyLines(latency)));
      if (schema?.detail === "list")
        process.stdout.write(`\n${schemaCheckText("Schema check", schema.reports, schema.summary(), false)}`);
      else if (schema) process.stdout.write(`\n${schemaSummaryText(schema.summary())}`);
    }
    return exitStatus;
  },
};
