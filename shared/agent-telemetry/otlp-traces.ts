/**
 * Reads an OTLP `ExportTraceServiceRequest` (opentelemetry-proto trace/v1 and collector/trace/v1),
 * in protobuf or in OTLP/JSON, into the fields of `agent-span` records. Pure and bounded: every
 * length is checked against the body, strings and attribute lists are cut to `SPAN_LIMITS`, and
 * anything that is not a well-formed request throws an `OtlpDecodeError` naming what is wrong.
 */

import { isJsonObject } from "../protocol/json-object.js";
import { utf8Decode } from "../trace/interchange/bytes.js";
import type { AgentSpanRecord, AgentSpanValue } from "../trace/record.js";

/** A decoded span: an `agent-span` record without the fields the tap adds (seq, ts, conn). */
export type DecodedSpan = Omit<AgentSpanRecord, "type" | "seq" | "ts" | "conn">;

/** What one span may hold; beyond it, the span is cut and marked `truncated`. */
export const SPAN_LIMITS = {
  /** Attributes kept per span. */
  attributes: 128,
  /** Characters kept of a string (name, attribute value, status message). */
  chars: 4096,
  /** Spans taken from one request; more is refused. */
  spansPerRequest: 10_000,
} as const;

/** The body is not an OTLP traces request; the message says why (safe to show: no body text in it). */
export class OtlpDecodeError extends Error {}

const fail = (why: string): never => {
  throw new OtlpDecodeError(why);
};

/** Collects one span's fields, cutting to the limits. */
class SpanBuilder {
  truncated = false;
  readonly attributes: Record<string, AgentSpanValue> = {};
  private count = 0;

  text(s: string): string {
    if (s.length <= SPAN_LIMITS.chars) return s;
    this.truncated = true;
    return `${s.slice(0, SPAN_LIMITS.chars)}…`;
  }

  attribute(key: string, value: AgentSpanValue | undefined): void {
    if (value === undefined) return;
    if (this.count >= SPAN_LIMITS.attributes) {
      this.truncated = true;
      return;
    }
    this.count++;
    this.attributes[this.text(key)] = typeof value === "string" ? this.text(value) : value;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hexOf(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += HEX[x] as string;
  return s;
}

function idOf(hex: string, digits: number, what: string, optional: boolean): string | undefined {
  if (hex === "" && optional) return undefined;
  const h = hex.toLowerCase();
  if (h.length !== digits || !/^[0-9a-f]+$/.test(h))
    fail(`${what} must be ${digits / 2} bytes (${digits} hex digits)`);
  if (!/[1-9a-f]/.test(h)) {
    if (optional) return undefined;
    fail(`${what} is all zero (an invalid id)`);
  }
  return h;
}

function finish(
  b: SpanBuilder,
  f: {
    traceId: string;
    spanId: string;
    parentSpanId: string;
    name: string;
    kind: number;
    startMs: number;
    endMs: number;
    statusCode: number;
    statusMessage: string;
    service: string | undefined;
  },
): DecodedSpan {
  const parent = idOf(f.parentSpanId, 16, "parentSpanId", true);
  if (!Number.isFinite(f.startMs) || !Number.isFinite(f.endMs)) fail("span times must be numbers");
  const status = f.statusCode === 1 ? "ok" : f.statusCode === 2 ? "error" : undefined;
  return {
    traceId: idOf(f.traceId, 32, "traceId", false) as string,
    spanId: idOf(f.spanId, 16, "spanId", false) as string,
    ...(parent !== undefined && { parentSpanId: parent }),
    name: b.text(f.name),
    ...(f.kind >= 1 && f.kind <= 5 && { kind: f.kind }),
    startMs: f.startMs,
    endMs: f.endMs,
    ...(Object.keys(b.attributes).length > 0 && { attributes: b.attributes }),
    ...(status && { status }),
    ...(f.statusMessage !== "" && { statusMessage: b.text(f.statusMessage) }),
    ...(f.service !== undefined && { service: b.text(f.service) }),
    ...(b.truncated && { truncated: true as const }),
  };
}

// ---- protobuf ---------------------------------------------------------------------------------

/** A bounds-checked reader of protobuf's wire format. */
class Wire {
  private i = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.i >= this.buf.length;
  }

  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.buf[this.i++];
      if (b === undefined) return fail("protobuf: truncated varint");
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
    }
    return fail("protobuf: varint longer than 10 bytes");
  }

  /** The next tag: field number and wire type. */
  tag(): { no: number; wire: number } {
    const t = Number(this.varint() & 0xffffffffn);
    return { no: t >>> 3, wire: t & 7 };
  }

  bytes(): Uint8Array {
    const len = this.varint();
    if (len > BigInt(this.buf.length - this.i)) fail("protobuf: a length runs past the end of the body");
    const n = Number(len);
    const out = this.buf.subarray(this.i, this.i + n);
    this.i += n;
    return out;
  }

  fixed(bytes: 4 | 8): Uint8Array {
    if (this.i + bytes > this.buf.length) fail("protobuf: truncated fixed-width field");
    const out = this.buf.subarray(this.i, this.i + bytes);
    this.i += bytes;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.fixed(8);
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.fixed(4);
    else fail(`protobuf: wire type ${wire} is not used by OTLP`);
  }
}

function text(b: Uint8Array): string {
  return utf8Decode(b) ?? fail("protobuf: a string is not valid UTF-8");
}

/** fixed64 little-endian nanoseconds as epoch milliseconds. */
function nanosToMs(b: Uint8Array): number {
  const lo =
    ((b[0] as number) | ((b[1] as number) << 8) | ((b[2] as number) << 16) | ((b[3] as number) << 24)) >>> 0;
  const hi =
    ((b[4] as number) | ((b[5] as number) << 8) | ((b[6] as number) << 16) | ((b[7] as number) << 24)) >>> 0;
  return (hi * 4294967296 + lo) / 1e6;
}

function doubleOf(b: Uint8Array): number {
  return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
}

/** The Span fields read, by number: the wire type each must have, and its name. */
const SPAN_WIRE: Record<number, readonly [number, string]> = {
  1: [2, "traceId"],
  2: [2, "spanId"],
  4: [2, "parentSpanId"],
  5: [2, "name"],
  6: [0, "kind"],
  7: [1, "startTimeUnixNano"],
  8: [1, "endTimeUnixNano"],
  9: [2, "attributes"],
  15: [2, "status"],
};

type Scalar = string | number | boolean;

/** An AnyValue: a scalar, a list of scalars, or JSON text for what our records do not model. */
function pbAnyValue(buf: Uint8Array, depth: number): { v: AgentSpanValue | undefined; json: unknown } {
  if (depth > 8) fail("protobuf: values nested too deep");
  const w = new Wire(buf);
  let out: { v: AgentSpanValue | undefined; json: unknown } = { v: undefined, json: null };
  while (!w.done) {
    const { no, wire } = w.tag();
    if (no === 1 && wire === 2) {
      const s = text(w.bytes());
      out = { v: s, json: s };
    } else if (no === 2 && wire === 0) {
      const b = w.varint() !== 0n;
      out = { v: b, json: b };
    } else if (no === 3 && wire === 0) {
      const n = Number(BigInt.asIntN(64, w.varint()));
      out = { v: n, json: n };
    } else if (no === 4 && wire === 1) {
      const d = doubleOf(w.fixed(8));
      out = Number.isFinite(d) ? { v: d, json: d } : { v: String(d), json: String(d) };
    } else if (no === 5 && wire === 2) {
      const items: unknown[] = [];
      const list = new Wire(w.bytes());
      while (!list.done) {
        const t = list.tag();
        if (t.no === 1 && t.wire === 2) items.push(pbAnyValue(list.bytes(), depth + 1).json);
        else list.skip(t.wire);
      }
      out = listValue(items);
    } else if (no === 6 && wire === 2) {
      const obj: Record<string, unknown> = {};
      const list = new Wire(w.bytes());
      while (!list.done) {
        const t = list.tag();
        if (t.no === 1 && t.wire === 2) {
          const kv = pbKeyValue(list.bytes(), depth + 1);
          obj[kv.key] = kv.json;
        } else list.skip(t.wire);
      }
      out = { v: JSON.stringify(obj), json: obj };
    } else if (no === 7 && wire === 2) {
      const h = hexOf(w.bytes());
      out = { v: h, json: h };
    } else w.skip(wire);
  }
  return out;
}

/** A list of scalars stays a list; anything else becomes its JSON text. */
function listValue(items: unknown[]): { v: AgentSpanValue; json: unknown } {
  const scalars = items.every(
    (x) => typeof x === "string" || typeof x === "boolean" || (typeof x === "number" && Number.isFinite(x)),
  );
  return { v: scalars ? (items as Scalar[]) : JSON.stringify(items), json: items };
}

function pbKeyValue(
  buf: Uint8Array,
  depth: number,
): { key: string; v: AgentSpanValue | undefined; json: unknown } {
  const w = new Wire(buf);
  let key = "";
  let value: { v: AgentSpanValue | undefined; json: unknown } = { v: undefined, json: null };
  while (!w.done) {
    const { no, wire } = w.tag();
    if (no === 1 && wire === 2) key = text(w.bytes());
    else if (no === 2 && wire === 2) value = pbAnyValue(w.bytes(), depth);
    else w.skip(wire);
  }
  return { key, ...value };
}

function pbSpan(buf: Uint8Array, service: string | undefined): DecodedSpan {
  const w = new Wire(buf);
  const b = new SpanBuilder();
  const f = {
    traceId: "",
    spanId: "",
    parentSpanId: "",
    name: "",
    kind: 0,
    startMs: 0,
    endMs: 0,
    statusCode: 0,
    statusMessage: "",
    service,
  };
  while (!w.done) {
    const { no, wire } = w.tag();
    const want = SPAN_WIRE[no];
    if (want === undefined) {
      w.skip(wire);
      continue;
    }
    if (wire !== want[0]) fail(`protobuf: ${want[1]} has wire type ${wire}, expected ${want[0]}`);
    if (no === 1) f.traceId = hexOf(w.bytes());
    else if (no === 2) f.spanId = hexOf(w.bytes());
    else if (no === 4) f.parentSpanId = hexOf(w.bytes());
    else if (no === 5) f.name = text(w.bytes());
    else if (no === 6) f.kind = Number(w.varint() & 0xffn);
    else if (no === 7) f.startMs = nanosToMs(w.fixed(8));
    else if (no === 8) f.endMs = nanosToMs(w.fixed(8));
    else if (no === 9) {
      const kv = pbKeyValue(w.bytes(), 0);
      b.attribute(kv.key, kv.v);
    } else {
      const s = new Wire(w.bytes());
      while (!s.done) {
        const t = s.tag();
        if (t.no === 2 && t.wire === 2) f.statusMessage = text(s.bytes());
        else if (t.no === 3 && t.wire === 0) f.statusCode = Number(s.varint() & 0xffn);
        else s.skip(t.wire);
      }
    }
  }
  return finish(b, f);
}

function pbServiceName(resource: Uint8Array): string | undefined {
  const w = new Wire(resource);
  let service: string | undefined;
  while (!w.done) {
    const { no, wire } = w.tag();
    if (no === 1 && wire === 2) {
      const kv = pbKeyValue(w.bytes(), 0);
      if (kv.key === "service.name" && typeof kv.v === "string") service = kv.v;
    } else w.skip(wire);
  }
  return service;
}

/** The spans of a protobuf `ExportTraceServiceRequest`. Throws `OtlpDecodeError`. */
export function decodeTracesProtobuf(body: Uint8Array): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  const top = new Wire(body);
  while (!top.done) {
    const { no, wire } = top.tag();
    if (no !== 1) {
      top.skip(wire);
      continue;
    }
    if (wire !== 2) fail(`protobuf: resourceSpans has wire type ${wire}, expected 2`);
    const rs = new Wire(top.bytes());
    let service: string | undefined;
    const scopes: Uint8Array[] = [];
    while (!rs.done) {
      const t = rs.tag();
      if (t.no === 1 && t.wire === 2) service = pbServiceName(rs.bytes());
      else if (t.no === 2 && t.wire === 2) scopes.push(rs.bytes());
      else rs.skip(t.wire);
    }
    for (const scope of scopes) {
      const ss = new Wire(scope);
      while (!ss.done) {
        const t = ss.tag();
        if (t.no === 2 && t.wire === 2) {
          if (spans.length >= SPAN_LIMITS.spansPerRequest)
            fail(`more than ${SPAN_LIMITS.spansPerRequest} spans in one request`);
          spans.push(pbSpan(ss.bytes(), service));
        } else ss.skip(t.wire);
      }
    }
  }
  return spans;
}

// ---- OTLP/JSON --------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function list(v: unknown, what: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(`${what} must be an array`);
  return v;
}

function object(v: unknown, what: string): Json {
  if (v === undefined || v === null) return {};
  if (!isJsonObject(v)) return fail(`${what} must be an object`);
  return v;
}

/** OTLP/JSON's 64-bit integers come as decimal strings (or numbers). */
function int64(v: unknown, what: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d{1,20}$/.test(v)) return Number(v);
  return fail(`${what} must be an integer or a decimal string`);
}

/** Nanoseconds as a decimal string (exact to the microsecond) or a number, as epoch milliseconds. */
function jsonNanosToMs(v: unknown, what: string): number {
  if (typeof v === "string" && /^\d{1,20}$/.test(v)) {
    const ms = v.length > 6 ? v.slice(0, -6) : "0";
    const frac = v.length > 6 ? v.slice(-6) : v.padStart(6, "0");
    return Number(ms) + Number(frac) / 1e6;
  }
  return int64(v, what) / 1e6;
}

function jsonString(v: unknown, what: string): string {
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") return fail(`${what} must be a string`);
  return v;
}

function jsonAnyValue(v: unknown, depth: number): { v: AgentSpanValue | undefined; json: unknown } {
  if (depth > 8) fail("values nested too deep");
  if (!isJsonObject(v)) return { v: undefined, json: null };
  if ("stringValue" in v) {
    const s = jsonString(v.stringValue, "stringValue");
    return { v: s, json: s };
  }
  if ("boolValue" in v) {
    if (typeof v.boolValue !== "boolean") fail("boolValue must be a boolean");
    return { v: v.boolValue as boolean, json: v.boolValue };
  }
  if ("intValue" in v) {
    const n = int64(v.intValue, "intValue");
    return { v: n, json: n };
  }
  if ("doubleValue" in v) {
    const d = v.doubleValue;
    if (typeof d === "number" && Number.isFinite(d)) return { v: d, json: d };
    if (d === "NaN" || d === "Infinity" || d === "-Infinity") return { v: d, json: d };
    return fail("doubleValue must be a number");
  }
  if ("arrayValue" in v) {
    const items = list(object(v.arrayValue, "arrayValue").values, "arrayValue.values");
    return listValue(items.map((x) => jsonAnyValue(x, depth + 1).json));
  }
  if ("kvlistValue" in v) {
    const obj: Record<string, unknown> = {};
    for (const kv of list(object(v.kvlistValue, "kvlistValue").values, "kvlistValue.values")) {
      const o = object(kv, "a key-value");
      obj[jsonString(o.key, "key")] = jsonAnyValue(o.value, depth + 1).json;
    }
    return { v: JSON.stringify(obj), json: obj };
  }
  if ("bytesValue" in v) {
    const s = jsonString(v.bytesValue, "bytesValue");
    return { v: s, json: s };
  }
  return { v: undefined, json: null };
}

function jsonAttributes(
  v: unknown,
  what: string,
  each: (key: string, value: AgentSpanValue | undefined) => void,
) {
  for (const kv of list(v, what)) {
    const o = object(kv, `an entry of ${what}`);
    each(jsonString(o.key, `a key of ${what}`), jsonAnyValue(o.value, 0).v);
  }
}

function jsonSpan(s: unknown, service: string | undefined): DecodedSpan {
  const o = object(s, "a span");
  const b = new SpanBuilder();
  jsonAttributes(o.attributes, "span attributes", (k, v) => b.attribute(k, v));
  const status = object(o.status, "status");
  return finish(b, {
    traceId: jsonString(o.traceId, "traceId"),
    spanId: jsonString(o.spanId, "spanId"),
    parentSpanId: jsonString(o.parentSpanId, "parentSpanId"),
    name: jsonString(o.name, "name"),
    kind: int64(o.kind, "kind"),
    startMs: jsonNanosToMs(o.startTimeUnixNano, "startTimeUnixNano"),
    endMs: jsonNanosToMs(o.endTimeUnixNano, "endTimeUnixNano"),
    statusCode: int64(status.code, "status.code"),
    statusMessage: jsonString(status.message, "status.message"),
    service,
  });
}

/** The spans of an OTLP/JSON `ExportTraceServiceRequest` (its text). Throws `OtlpDecodeError`. */
export function decodeTracesJson(body: string): DecodedSpan[] {
  let req: unknown;
  try {
    req = JSON.parse(body);
  } catch {
    return fail("the body is not JSON");
  }
  if (!isJsonObject(req)) return fail("the body must be a JSON object with resourceSpans");
  const spans: DecodedSpan[] = [];
  for (const rs of list(req.resourceSpans, "resourceSpans")) {
    const r = object(rs, "a resourceSpans entry");
    let service: string | undefined;
    jsonAttributes(object(r.resource, "resource").attributes, "resource attributes", (k, v) => {
      if (k === "service.name" && typeof v === "string") service = v;
    });
    for (const ss of list(r.scopeSpans, "scopeSpans")) {
      for (const s of list(object(ss, "a scopeSpans entry").spans, "spans")) {
        if (spans.length >= SPAN_LIMITS.spansPerRequest)
          fail(`more than ${SPAN_LIMITS.spansPerRequest} spans in one request`);
        spans.push(jsonSpan(s, service));
      }
    }
  }
  return spans;
}
