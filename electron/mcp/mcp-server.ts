/**
 * `acp-retry-inspector mcp`: a read-only MCP server over stdio, so a coding agent can help triage
 * recorded sessions. Its tools list the traces it may read (trace-catalogue.ts), summarise one,
 * return one submission with its attempts and frames, search with the app's filter syntax and list
 * the frames that break the ACP schema, and diff two traces with the CI gate's verdict;
 * everything comes from the trace redacted as `export` redacts it (redacted-trace.ts). It writes
 * nothing and reads nothing else. Bundled on its own as `mcp.js` beside `cli.js` (with the MCP SDK
 * inside), so the CLI's other commands never load it.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { loadRedactedPair, RedactedTraces } from "./redacted-trace.js";
import { listViolations, MAX_VIOLATION_FRAMES } from "./schema-violations.js";
import { search, submissionDetail, summarize } from "./trace-answers.js";
import { TraceCatalogue, TraceRequestError } from "./trace-catalogue.js";
import { diffAnswer, MAX_DIFF_SUBMISSIONS } from "./trace-diff-answer.js";

/** What the server reads. */
export interface McpServerOptions {
  /** The user's traces folder. */
  readonly tracesDir: string;
  /** Trace files named on the command line. */
  readonly files: readonly string[];
  readonly version: string;
}

type Answer = { content: { type: "text"; text: string }[]; isError?: boolean };

/** A tool's JSON answer, or its refusal as an error result (never a crash of the server). */
async function answer(work: () => unknown | Promise<unknown>): Promise<Answer> {
  try {
    return { content: [{ type: "text", text: JSON.stringify(await work(), null, 1) }] };
  } catch (err) {
    const message =
      err instanceof TraceRequestError
        ? err.message
        : `internal error: ${err instanceof Error ? err.message : String(err)}`;
    return { content: [{ type: "text", text: message }], isError: true };
  }
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const traceName = z.string().max(4096).describe("a trace's name as list_traces gives it");

/** The server with its tools, not yet connected. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const catalogue = new TraceCatalogue(options.tracesDir, options.files);
  const traces = new RedactedTraces();
  const load = (name: string) => traces.load(catalogue.find(name));
  const server = new McpServer({ name: "acp-retry-inspector", version: options.version });

  server.registerTool(
    "list_traces",
    {
      title: "List traces",
      description:
        "The ACP session traces this server can read: the user's traces folder (newest first) and files given on its command line. Names, sizes, times.",
      annotations: READ_ONLY,
    },
    () => answer(() => ({ tracesFolder: options.tracesDir, ...catalogue.list() })),
  );
  server.registerTool(
    "summarize_trace",
    {
      title: "Summarise a trace",
      description:
        "One trace at a glance: header, counts, verdicts of the Idempotency Keys RFD (violations, client issues, notes) with the rows and frame seqs that show them, and the first submissions. Redacted as `export` redacts.",
      inputSchema: { trace: traceName },
      annotations: READ_ONLY,
    },
    ({ trace }) => answer(async () => summarize(await load(trace))),
  );
  server.registerTool(
    "get_submission",
    {
      title: "Get a submission",
      description:
        "One submission (a session/prompt and its retries under one idempotency key), by row id or key: its attempts, outcomes, what the Client saw, verdicts, and each attempt's frames (redacted).",
      inputSchema: {
        trace: traceName,
        id: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe("the submission's row id (summarize_trace, search)"),
        key: z.string().max(4096).optional().describe("the submission's idempotency key"),
      },
      annotations: READ_ONLY,
    },
    ({ trace, id, key }) => answer(async () => submissionDetail(await load(trace), { id, key })),
  );
  server.registerTool(
    "search",
    {
      title: "Search a trace",
      description:
        'The Timeline rows that pass a query in the app\'s filter syntax: fields method, session, key, outcome, verdict, direction, connection, id, origin (`method:session/prompt`, `verdict:dup*`, `-outcome:ok`), free words and "quoted phrases" (searched in the redacted frames).',
      inputSchema: {
        trace: traceName,
        query: z.string().max(4096),
        limit: z.number().int().positive().max(500).optional().describe("rows returned at most (default 50)"),
      },
      annotations: READ_ONLY,
    },
    ({ trace, query, limit }) => answer(async () => search(await load(trace), query, limit)),
  );
  server.registerTool(
    "list_violations",
    {
      title: "List schema violations",
      description:
        "The frames of a trace that break the official ACP JSON Schema (v1 or v2 by the negotiated protocolVersion; v2 extended with the RFD's idempotencyKey): seq, connection, direction, method, schema type, and per violation the JSON path and what the schema says. With extensions: also frames that only carry _meta or undeclared properties (marked, not failed).",
      inputSchema: {
        trace: traceName,
        extensions: z.boolean().optional().describe("also list frames that only carry extension fields"),
        limit: z
          .number()
          .int()
          .positive()
          .max(MAX_VIOLATION_FRAMES)
          .optional()
          .describe("frames returned at most (default 50)"),
      },
      annotations: READ_ONLY,
    },
    ({ trace, extensions, limit }) => answer(() => listViolations(catalogue.find(trace), limit, extensions)),
  );
  server.registerTool(
    "diff_traces",
    {
      title: "Diff two traces",
      description:
        "Trace A (before) compared with trace B (after) as `acp-retry-inspector diff` compares them: submissions paired by idempotency key or by session position and prompt, each field (outcome, verdicts, attempts, inserts, messageIds, latency) marked better/worse/same/changed with a reason, other requests by method, setup facts, totals, and the CI gate's verdict (worse when any submission's verdicts got worse, else same). Redacted as `export` redacts.",
      inputSchema: {
        a: traceName.describe("trace A (before): a name as list_traces gives it"),
        b: traceName.describe("trace B (after): a name as list_traces gives it"),
        limit: z
          .number()
          .int()
          .positive()
          .max(MAX_DIFF_SUBMISSIONS)
          .optional()
          .describe("submission rows returned at most, changed ones first (default 50)"),
      },
      annotations: READ_ONLY,
    },
    ({ a, b, limit }) =>
      answer(async () => {
        // Both names are checked before either file is read.
        const entryA = catalogue.find(a);
        const entryB = catalogue.find(b);
        return diffAnswer(...(await loadRedactedPair(entryA, entryB)), limit);
      }),
  );
  return server;
}

/** Serves MCP on this process's stdin and stdout until the client closes them. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
