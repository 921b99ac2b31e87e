/**
 * `proxy --collect-agent-telemetry`: a loopback OTLP/HTTP receiver for the agent the tap spawns.
 * `POST /v1/traces` in protobuf or JSON becomes one `agent-span` record per span in the trace;
 * `/v1/metrics` and `/v1/logs` are accepted and counted. Each agent process gets its own random
 * token (in `OTEL_EXPORTER_OTLP_HEADERS`, never argv or a URL), which also says which connection's
 * agent sent a span. Bad input is answered 4xx with a reason, counted and noted once in the trace;
 * it never reaches the terminal unescaped and never disturbs the session.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gunzip } from "node:zlib";
import {
  decodeTracesJson,
  decodeTracesProtobuf,
  OtlpDecodeError,
} from "../../shared/agent-telemetry/otlp-traces.js";
import type { TraceFanout } from "../trace/trace-fanout.js";
import { agentTelemetryEnv, SIGNAL_PATHS } from "./agent-env.js";
import { otlpBearerMatches } from "./otlp-authorization.js";

/** The receiver's limits. */
export const RECEIVER_LIMITS = {
  /** Bytes of one request body, before and after gunzip. */
  bodyBytes: 4 * 1024 * 1024,
  /** Connections open at once. */
  connections: 16,
  /** Time for one request, headers and body, ms. */
  requestMs: 10_000,
  /** Rejections written to the trace as notes (all are counted). */
  notedRejections: 5,
} as const;

/** What the receiver did, for the summary line. */
export interface ReceiverCounts {
  spans: number;
  traceRequests: number;
  /** Of the trace requests taken, how many were OTLP/JSON (the others protobuf). */
  jsonRequests: number;
  metricsRequests: number;
  logsRequests: number;
  rejected: number;
  firstRejection: string | null;
  /** Trace requests that came after the trace was closed (the agent exported after it ended): not recorded. */
  late: number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | null = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (chunks !== null && size > RECEIVER_LIMITS.bodyBytes) {
        // Answer at once; the rest is read and thrown away until the connection closes.
        chunks = null;
        reject(new Refusal(413, `the body is larger than ${RECEIVER_LIMITS.bodyBytes} bytes`));
      }
      chunks?.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks ?? [])));
    req.on("error", reject);
  });
}

function inflate(body: Buffer, encoding: string): Promise<Buffer> {
  if (encoding === "" || encoding === "identity") return Promise.resolve(body);
  if (encoding !== "gzip")
    return Promise.reject(new Refusal(415, `content-encoding ${encoding} is not supported (gzip is)`));
  return new Promise((resolve, reject) =>
    gunzip(body, { maxOutputLength: RECEIVER_LIMITS.bodyBytes }, (err, out) =>
      err
        ? reject(
            new Refusal(
              400,
              `the gzip body cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
            ),
          )
        : resolve(out),
    ),
  );
}

/** The OTLP receiver of one proxy run. */
export class AgentTelemetryReceiver {
  readonly counts: ReceiverCounts = {
    spans: 0,
    traceRequests: 0,
    jsonRequests: 0,
    metricsRequests: 0,
    logsRequests: 0,
    rejected: 0,
    firstRejection: null,
    late: 0,
  };
  /** Token → the connection whose agent holds it. */
  private readonly tokens = new Map<string, number>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly port: number,
    private readonly trace: TraceFanout,
  ) {}

  /** Starts a receiver on 127.0.0.1, port 0, recording into `trace`. */
  static async start(trace: TraceFanout): Promise<AgentTelemetryReceiver> {
    let self: AgentTelemetryReceiver | undefined;
    const server = createServer((req, res) => void self?.handle(req, res));
    server.maxConnections = RECEIVER_LIMITS.connections;
    server.requestTimeout = RECEIVER_LIMITS.requestMs;
    server.headersTimeout = RECEIVER_LIMITS.requestMs;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    self = new AgentTelemetryReceiver(server, port, trace);
    return self;
  }

  /** The base endpoint the agent is given, `http://127.0.0.1:PORT`. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * The environment for the agent serving connection `conn`: `base` with the `OTEL_*` variables set
   * (a new token for this connection), and the names of inherited variables that were replaced.
   */
  envFor(
    conn: number,
    base: NodeJS.ProcessEnv,
    serviceName: string,
  ): { env: NodeJS.ProcessEnv; replaced: string[] } {
    const token = randomBytes(32).toString("hex");
    this.tokens.set(token, conn);
    return agentTelemetryEnv(base, this.endpoint, token, serviceName);
  }

  /** Stops taking requests; resolves when the server is closed. */
  close(): Promise<void> {
    this.closed = true;
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** One line for stderr: what arrived. */
  describe(): string {
    const c = this.counts;
    const parts = [
      `${c.spans} agent span${c.spans === 1 ? "" : "s"} recorded from ${c.traceRequests} request${c.traceRequests === 1 ? "" : "s"} (${c.traceRequests - c.jsonRequests} protobuf, ${c.jsonRequests} JSON)`,
    ];
    if (c.metricsRequests + c.logsRequests > 0)
      parts.push(`${c.metricsRequests} metrics and ${c.logsRequests} logs requests accepted, not recorded`);
    if (c.late > 0)
      parts.push(
        `${c.late} traces request${c.late === 1 ? "" : "s"} came after the trace closed, not recorded`,
      );
    if (c.rejected > 0) parts.push(`${c.rejected} rejected (first: ${c.firstRejection})`);
    return `agent telemetry: ${parts.join("; ")}`;
  }

  // The header as sent or percent-encoded (Claude Code does not decode OTEL_EXPORTER_OTLP_HEADERS).
  private conn(req: IncomingMessage): number | undefined {
    for (const [token, conn] of this.tokens)
      if (otlpBearerMatches(req.headers.authorization, token)) return conn;
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const host = req.headers.host ?? "";
      if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`)
        throw new Refusal(421, "the Host header must name this loopback receiver");
      const conn = this.conn(req);
      if (conn === undefined) throw new Refusal(401, "no valid Authorization: Bearer token");
      const path = (req.url ?? "").split("?", 1)[0];
      const signal = Object.entries(SIGNAL_PATHS).find(([, p]) => p === path)?.[0];
      if (signal === undefined)
        throw new Refusal(404, "not an OTLP/HTTP path (/v1/traces, /v1/metrics, /v1/logs)");
      if (req.method !== "POST") throw new Refusal(405, "OTLP/HTTP takes POST");
      const type =
        String(req.headers["content-type"] ?? "")
          .split(";", 1)[0]
          ?.trim()
          .toLowerCase() ?? "";
      const json = type === "application/json";
      if (!json && type !== "application/x-protobuf")
        throw new Refusal(415, "content-type must be application/x-protobuf or application/json");
      const body = await inflate(
        await readBody(req),
        String(req.headers["content-encoding"] ?? "").toLowerCase(),
      );
      if (this.closed || this.trace.closed) {
        if (signal === "TRACES") this.counts.late++;
        throw new Refusal(503, "the tap is stopping: its trace is closed");
      }
      if (signal === "TRACES") this.recordSpans(body, json, conn);
      else if (signal === "METRICS") this.counts.metricsRequests++;
      else this.counts.logsRequests++;
      // An empty ExportTraceServiceResponse (no partial_success): everything was accepted.
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : "");
    } catch (err) {
      this.refuse(req, res, err);
    }
  }

  private recordSpans(body: Buffer, json: boolean, conn: number): void {
    let spans: ReturnType<typeof decodeTracesJson>;
    try {
      spans = json ? decodeTracesJson(body.toString("utf8")) : decodeTracesProtobuf(body);
    } catch (err) {
      if (err instanceof OtlpDecodeError)
        throw new Refusal(400, `not an OTLP traces request: ${err.message}`);
      throw err;
    }
    this.counts.traceRequests++;
    if (json) this.counts.jsonRequests++;
    for (const span of spans) {
      this.trace.emit({ type: "agent-span", ...span, conn });
      this.counts.spans++;
    }
  }

  private refuse(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const status = err instanceof Refusal ? err.status : 500;
    const why =
      err instanceof Refusal
        ? err.message
        : `internal error: ${err instanceof Error ? err.message : String(err)}`;
    this.counts.rejected++;
    this.counts.firstRejection ??= `${status} ${why}`;
    if (this.counts.rejected <= RECEIVER_LIMITS.notedRejections && !this.closed && !this.trace.closed)
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `agent telemetry: refused ${req.method ?? "?"} request (${status}): ${why}${this.counts.rejected === RECEIVER_LIMITS.notedRejections ? "; later refusals are only counted" : ""}`,
      });
    if (res.headersSent) return;
    // Like an OTLP collector: a google.rpc.Status-shaped JSON body with the reason.
    res.writeHead(status, { "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify({ code: status === 400 ? 3 : 16, message: why }));
  }
}
