/**
 * A real OTLP/HTTP traces receiver for tests: an HTTP server on 127.0.0.1 (port 0) that takes
 * `POST /v1/traces` in protobuf or JSON, answers 200, and keeps every span it got, decoded to one
 * shape whichever encoding carried it. The protobuf reader reads the wire format of OTLP's
 * `ExportTraceServiceRequest` by field number (trace.proto, common.proto); no OTLP package in the
 * tree offers a request decoder (the exporters only encode).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";

/** An attribute value as received. */
export type ReceivedValue = string | number | boolean | ReceivedValue[] | null;

/** One span as the receiver decoded it. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind number: 1 internal, 3 client. */
  readonly kind: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Record<string, ReceivedValue>;
  readonly events: { name: string; timeMs: number; attributes: Record<string, ReceivedValue> }[];
  /** OTLP's StatusCode number: 0 unset, 2 error. */
  readonly status: { code: number; message: string };
  /** The resource's attributes (service.name, ...). */
  readonly resource: Record<string, ReceivedValue>;
  /** The request's encoding. */
  readonly encoding: "protobuf" | "json";
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base endpoint, `http://127.0.0.1:PORT` (the export appends /v1/traces). */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Content types of the requests received, in order. */
  readonly contentTypes: string[];
  /** Resolves once at least `n` spans arrived. */
  waitForSpans(n: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

// ---- protobuf wire format -----------------------------------------------------------------

type Field = { no: number; wire: number; int?: bigint; bytes?: Uint8Array };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error("truncated varint");
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ no, wire, int: varint() });
    else if (wire === 1) {
      out.push({ no, wire, int: new DataView(buf.buffer, buf.byteOffset + i, 8).getBigUint64(0, true) });
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) {
      out.push({ no, wire, int: BigInt(new DataView(buf.buffer, buf.byteOffset + i, 4).getUint32(0, true)) });
      i += 4;
    } else throw new Error(`wire type ${wire} not used by OTLP`);
  }
  return out;
}

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b ?? new Uint8Array());
const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString("hex");
const signed = (v: bigint) => Number(BigInt.asIntN(64, v));

function pbAnyValue(buf: Uint8Array): ReceivedValue {
  const f = fields(buf)[0];
  if (!f) return null;
  switch (f.no) {
    case 1:
      return text(f.bytes);
    case 2:
      return f.int === 1n;
    case 3:
      return signed(f.int ?? 0n);
    case 4:
      return new DataView(new BigUint64Array([f.int ?? 0n]).buffer).getFloat64(0, true);
    case 5:
      return fields(f.bytes ?? new Uint8Array())
        .filter((v) => v.no === 1)
        .map((v) => pbAnyValue(v.bytes ?? new Uint8Array()));
    default:
      return null;
  }
}

function pbAttributes(list: Field[], no: number): Record<string, ReceivedValue> {
  const out: Record<string, ReceivedValue> = {};
  for (const kv of list.filter((f) => f.no === no)) {
    const parts = fields(kv.bytes ?? new Uint8Array());
    const key = text(parts.find((p) => p.no === 1)?.bytes);
    const value = parts.find((p) => p.no === 2)?.bytes;
    out[key] = value ? pbAnyValue(value) : null;
  }
  return out;
}

const ns = (v: bigint | undefined) => Number(v ?? 0n) / 1e6;

function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of fields(body).filter((f) => f.no === 1)) {
    const rsf = fields(rs.bytes ?? new Uint8Array());
    const resourceBytes = rsf.find((f) => f.no === 1)?.bytes;
    const resource = resourceBytes ? pbAttributes(fields(resourceBytes), 1) : {};
    for (const ss of rsf.filter((f) => f.no === 2)) {
      for (const sp of fields(ss.bytes ?? new Uint8Array()).filter((f) => f.no === 2)) {
        const s = fields(sp.bytes ?? new Uint8Array());
        const one = (no: number) => s.find((f) => f.no === no);
        const statusFields = fields(one(15)?.bytes ?? new Uint8Array());
        spans.push({
          traceId: hex(one(1)?.bytes),
          spanId: hex(one(2)?.bytes),
          parentSpanId: hex(one(4)?.bytes),
          name: text(one(5)?.bytes),
          kind: Number(one(6)?.int ?? 0n),
          startMs: ns(one(7)?.int),
          endMs: ns(one(8)?.int),
          attributes: pbAttributes(s, 9),
          events: s
            .filter((f) => f.no === 11)
            .map((e) => {
              const ef = fields(e.bytes ?? new Uint8Array());
              return {
                name: text(ef.find((f) => f.no === 2)?.bytes),
                timeMs: ns(ef.find((f) => f.no === 1)?.int),
                attributes: pbAttributes(ef, 3),
              };
            }),
          status: {
            code: Number(statusFields.find((f) => f.no === 3)?.int ?? 0n),
            message: text(statusFields.find((f) => f.no === 2)?.bytes),
          },
          resource,
          encoding: "protobuf",
        });
      }
    }
  }
  return spans;
}

// ---- JSON -----------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function jsonValue(v: Json | undefined): ReceivedValue {
  if (!v) return null;
  if ("stringValue" in v) return String(v.stringValue);
  if ("boolValue" in v) return Boolean(v.boolValue);
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return Number(v.doubleValue);
  if ("arrayValue" in v) return ((v.arrayValue as Json).values as Json[] | undefined)?.map(jsonValue) ?? [];
  return null;
}

function jsonAttributes(list: unknown): Record<string, ReceivedValue> {
  const out: Record<string, ReceivedValue> = {};
  for (const kv of (list as Json[] | undefined) ?? []) out[String(kv.key)] = jsonValue(kv.value as Json);
  return out;
}

function decodeJson(body: string): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  const req = JSON.parse(body) as Json;
  for (const rs of (req.resourceSpans as Json[] | undefined) ?? []) {
    const resource = jsonAttributes((rs.resource as Json | undefined)?.attributes);
    for (const ss of (rs.scopeSpans as Json[] | undefined) ?? []) {
      for (const s of (ss.spans as Json[] | undefined) ?? []) {
        const status = (s.status as Json | undefined) ?? {};
        spans.push({
          traceId: String(s.traceId ?? ""),
          spanId: String(s.spanId ?? ""),
          parentSpanId: String(s.parentSpanId ?? ""),
          name: String(s.name ?? ""),
          kind: Number(s.kind ?? 0),
          startMs: Number(BigInt(String(s.startTimeUnixNano ?? 0))) / 1e6,
          endMs: Number(BigInt(String(s.endTimeUnixNano ?? 0))) / 1e6,
          attributes: jsonAttributes(s.attributes),
          events: ((s.events as Json[] | undefined) ?? []).map((e) => ({
            name: String(e.name ?? ""),
            timeMs: Number(BigInt(String(e.timeUnixNano ?? 0))) / 1e6,
            attributes: jsonAttributes(e.attributes),
          })),
          status: { code: Number(status.code ?? 0), message: String(status.message ?? "") },
          resource,
          encoding: "json",
        });
      }
    }
  }
  return spans;
}

// ---- the server -----------------------------------------------------------------------------

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    void body(req).then((b) => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const type = String(req.headers["content-type"] ?? "");
      contentTypes.push(type);
      try {
        spans.push(...(type.includes("json") ? decodeJson(b.toString("utf8")) : decodeProtobuf(b)));
      } catch (err) {
        res.writeHead(400).end(String(err));
        return;
      }
      res
        .writeHead(200, { "content-type": type.includes("json") ? "application/json" : type })
        .end(type.includes("json") ? "{}" : "");
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitForSpans(n) {
      return new Promise((resolve) => {
        const check = () => (spans.length >= n ? resolve(spans) : waiters.push(check));
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
