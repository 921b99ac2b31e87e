/**
 * TEMPORARY: a minimal in-process core that stands in for the hub until it is merged. It keeps an
 * event log, accepts imports and exports of trace files, and answers fault buttons with a fault
 * record saying there is no agent to act on. Replace its use in `start-app.ts` with the hub.
 */
import type { AppStatus } from "../../shared/app/app-event.js";
import { type OperationCall, type OperationResults, parseOperationCall } from "../../shared/app/operation.js";
import { decodeHeader, decodeRecord, encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceRecord } from "../../shared/trace/record.js";
import { type AppCore, OperationError } from "./app-core.js";
import { EventLog } from "./event-log.js";

/** Options of the placeholder core. */
export interface PlaceholderCoreOptions {
  /** What the toolbar says is being inspected. */
  readonly label: string;
  /** The tool name and version written into exported trace headers. */
  readonly tool: string;
}

/** Starts the placeholder core; see the file comment. */
export function createPlaceholderCore(options: PlaceholderCoreOptions): AppCore {
  const log = new EventLog();
  let status: AppStatus = { paused: false, agent: "none", clients: 0, label: options.label };
  let records: TraceRecord[] = [];
  let recordSeq = 0;
  const now = () => Date.now();

  log.append({ kind: "status", status });
  const record = (r: TraceRecord) => {
    records.push(r);
    if (!status.paused) log.append({ kind: "record", record: r });
  };
  record({
    type: "note",
    seq: ++recordSeq,
    ts: now(),
    level: "info",
    text: "No agent attached yet: import a trace file to look at it.",
  });

  async function run(call: OperationCall): Promise<OperationResults[OperationCall["op"]]> {
    switch (call.op) {
      case "clear":
        records = [];
        log.append({ kind: "cleared" });
        return { cleared: true };
      case "setPaused":
        status = { ...status, paused: call.args.paused };
        log.append({ kind: "status", status });
        return { paused: status.paused };
      case "exportTrace": {
        const header = encodeHeader({
          format: TRACE_FORMAT,
          version: TRACE_FORMAT_VERSION,
          tool: options.tool,
          startedAt: new Date().toISOString(),
        });
        // TEMPORARY redaction: the hub's exporter replaces prompt text and file contents by their
        // length; until it lands, a redacted export keeps only each frame's length.
        const body = records
          .map((r) =>
            call.args.redacted && r.type === "frame"
              ? { ...r, raw: JSON.stringify({ redacted: r.raw.length }) }
              : r,
          )
          .map(encodeRecord)
          .join("");
        const stamp = new Date().toISOString().replace(/[:.]/g, "-");
        return {
          fileName: `acp-trace-${stamp}${call.args.redacted ? "-redacted" : ""}.jsonl`,
          text: header + body,
          redacted: call.args.redacted,
        };
      }
      case "importTrace": {
        const lines = call.args.text.split("\n").filter((l) => l.trim() !== "");
        const problems: string[] = [];
        const head = lines[0] === undefined ? undefined : decodeHeader(lines[0]);
        if (head?.kind !== "header") {
          throw new OperationError(
            `${call.args.fileName}: ${head?.kind === "problem" ? head.message : "the file is empty"}`,
          );
        }
        let count = 0;
        lines.slice(1).forEach((line, i) => {
          const d = decodeRecord(line);
          if (d.kind === "record") {
            record(d.record);
            count++;
          } else if (d.kind === "problem") {
            problems.push(`line ${i + 2}: ${d.message}`);
          }
        });
        return { records: count, problems };
      }
      case "injectFault":
        record({
          type: "fault",
          seq: ++recordSeq,
          ts: now(),
          action: call.args.action,
          detail: "not applied: no agent is attached to this session",
        });
        return { accepted: false, detail: "no agent is attached to this session" };
    }
  }

  return {
    subscribe: (fromSeq, onBatch) => log.subscribe(fromSeq, onBatch),
    async invoke(op, args) {
      const call = parseOperationCall(op, args);
      if ("error" in call) throw new OperationError(call.error);
      return (await run(call)) as never;
    },
    async close() {},
  };
}
