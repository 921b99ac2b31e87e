/**
 * A bounded scan of one JSON-RPC line for the few fields the tap needs on its forwarding turn,
 * without building the parsed object. The scan checks the whole text against the JSON grammar, so
 * a line it reads is exactly a line `JSON.parse` accepts; it gives up (returns `null`) whenever it
 * cannot be sure of agreeing with `classifyFrame`: a line past `MAX_SCAN_CHARS` or nested deeper
 * than `MAX_SCAN_DEPTH`, an escaped or repeated key where the fields are read, an error answer whose
 * error object is not plainly `code` and `message`, or anything `classifyFrame` calls malformed.
 * Callers then parse the line in full.
 */

import type { JsonRpcId } from "./frame.js";

/** Lines longer than this (UTF-16 units) are not scanned. */
export const MAX_SCAN_CHARS = 256 * 1024;
/** Values nested deeper than this are not scanned. */
export const MAX_SCAN_DEPTH = 64;

/** What `scanFrame` reads of a well-formed JSON-RPC 2.0 frame. */
export interface FrameScan {
  readonly kind: "request" | "notification" | "result" | "error";
  /** The `id` (requests and answers); `undefined` for notifications. */
  readonly id: JsonRpcId | undefined;
  /** The `method` (requests and notifications). */
  readonly method: string | undefined;
  /** `params.sessionId` when `params` is an object and it is a string. */
  readonly sessionId: string | undefined;
  /** Whether `params` is an object with an `idempotencyKey` member (of any value). */
  readonly hasIdempotencyKey: boolean;
}

/** A scan result that means "not read here: parse in full". */
const GIVE_UP = -2;
/** A scan result that means "not JSON". */
const BAD = -1;

// Top-level members the classification reads.
const JSONRPC = 0;
const ID = 1;
const METHOD = 2;
const PARAMS = 3;
const RESULT = 4;
const ERROR = 5;
// Members read one level down: `params.sessionId`, `params.idempotencyKey`, `error.code`, `error.message`.
const SESSION_ID = 6;
const IDEMPOTENCY_KEY = 7;
const CODE = 8;
const MESSAGE = 9;

/** Value spans of the members read, [start, end) per slot; -1 when absent. */
const starts = new Int32Array(10);
const ends = new Int32Array(10);
/** Whether the string that `skipString` last passed had an escape. */
let escaped = false;

function skipSpace(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** The plain characters of a JSON string (no quote, backslash or control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters; this finds them.
const PLAIN = /[^"\\\u0000-\u001f]*/y;
/** Strings shorter than this are walked a character at a time; longer ones go through `PLAIN`. */
const SHORT = 24;

/** Past the escape whose backslash is at `j`, or BAD. */
function skipEscape(s: string, j: number): number {
  const e = s.charCodeAt(j + 1);
  if (e === 0x75) {
    for (let k = j + 2; k < j + 6; k++) if (!isHex(s.charCodeAt(k))) return BAD;
    return j + 6;
  }
  if (
    e === 0x22 ||
    e === 0x5c ||
    e === 0x2f ||
    e === 0x62 ||
    e === 0x66 ||
    e === 0x6e ||
    e === 0x72 ||
    e === 0x74
  )
    return j + 2;
  return BAD;
}

/** Past the JSON string whose quote is at `i`, or BAD; sets `escaped`. */
function skipString(s: string, i: number): number {
  escaped = false;
  let j = i + 1;
  const short = Math.min(s.length, j + SHORT);
  while (j < short) {
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return BAD;
    if (c === 0x5c) {
      escaped = true;
      j = skipEscape(s, j);
      if (j < 0) return BAD;
    } else j++;
  }
  for (;;) {
    PLAIN.lastIndex = j;
    PLAIN.test(s);
    j = PLAIN.lastIndex;
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c !== 0x5c) return BAD;
    escaped = true;
    j = skipEscape(s, j);
    if (j < 0) return BAD;
  }
}

function skipDigits(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) i++;
    else return i;
  }
}

/** Past the JSON number at `i`, or BAD. */
function skipNumber(s: string, i: number): number {
  let j = i;
  if (s.charCodeAt(j) === 0x2d) j++;
  const first = s.charCodeAt(j);
  if (first === 0x30) j++;
  else if (first >= 0x31 && first <= 0x39) j = skipDigits(s, j + 1);
  else return BAD;
  if (s.charCodeAt(j) === 0x2e) {
    const k = skipDigits(s, j + 1);
    if (k === j + 1) return BAD;
    j = k;
  }
  const e = s.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    j++;
    const sign = s.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    const k = skipDigits(s, j);
    if (k === j) return BAD;
    j = k;
  }
  return j;
}

/** Past the JSON value at `i` (nested `depth` deep), BAD, or GIVE_UP past `MAX_SCAN_DEPTH`. */
function skipValue(s: string, i: number, depth: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return skipString(s, i);
  if (c === 0x7b) return skipObject(s, i, depth, -1);
  if (c === 0x5b) return skipArray(s, i, depth);
  if (c === 0x74) return s.startsWith("true", i) ? i + 4 : BAD;
  if (c === 0x66) return s.startsWith("false", i) ? i + 5 : BAD;
  if (c === 0x6e) return s.startsWith("null", i) ? i + 4 : BAD;
  return skipNumber(s, i);
}

function skipArray(s: string, i: number, depth: number): number {
  if (depth >= MAX_SCAN_DEPTH) return GIVE_UP;
  let j = skipSpace(s, i + 1);
  if (s.charCodeAt(j) === 0x5d) return j + 1;
  for (;;) {
    j = skipValue(s, j, depth + 1);
    if (j < 0) return j;
    j = skipSpace(s, j);
    const c = s.charCodeAt(j);
    if (c === 0x5d) return j + 1;
    if (c !== 0x2c) return BAD;
    j = skipSpace(s, j + 1);
  }
}

/** The slot of the key whose text (quotes included) is s[from, to) in an object of `level`, or -1. */
function slotOf(s: string, from: number, to: number, level: number): number {
  const len = to - from - 2;
  const k = from + 1;
  if (level === 0) {
    if (len === 2) return s.startsWith("id", k) ? ID : -1;
    if (len === 6) {
      if (s.startsWith("method", k)) return METHOD;
      if (s.startsWith("params", k)) return PARAMS;
      if (s.startsWith("result", k)) return RESULT;
      return -1;
    }
    if (len === 7) return s.startsWith("jsonrpc", k) ? JSONRPC : -1;
    if (len === 5) return s.startsWith("error", k) ? ERROR : -1;
    return -1;
  }
  if (level === PARAMS) {
    if (len === 9) return s.startsWith("sessionId", k) ? SESSION_ID : -1;
    if (len === 14) return s.startsWith("idempotencyKey", k) ? IDEMPOTENCY_KEY : -1;
    return -1;
  }
  if (len === 4) return s.startsWith("code", k) ? CODE : -1;
  if (len === 7) return s.startsWith("message", k) ? MESSAGE : -1;
  return -1;
}

/**
 * Past the JSON object at `i`, BAD, or GIVE_UP. `level` -1 reads nothing; 0 (the frame), PARAMS or
 * ERROR record the spans of the members read, and give up on an escaped key or a repeated member.
 */
function skipObject(s: string, i: number, depth: number, level: number): number {
  if (depth >= MAX_SCAN_DEPTH) return GIVE_UP;
  let j = skipSpace(s, i + 1);
  if (s.charCodeAt(j) === 0x7d) return j + 1;
  for (;;) {
    if (s.charCodeAt(j) !== 0x22) return BAD;
    const keyEnd = skipString(s, j);
    if (keyEnd < 0) return keyEnd;
    let slot = -1;
    if (level >= 0) {
      if (escaped) return GIVE_UP;
      slot = slotOf(s, j, keyEnd, level);
      if (slot >= 0 && starts[slot] !== -1) return GIVE_UP;
    }
    j = skipSpace(s, keyEnd);
    if (s.charCodeAt(j) !== 0x3a) return BAD;
    const start = skipSpace(s, j + 1);
    const c = s.charCodeAt(start);
    j =
      c === 0x7b && (slot === PARAMS || slot === ERROR)
        ? skipObject(s, start, depth + 1, slot)
        : skipValue(s, start, depth + 1);
    if (j < 0) return j;
    if (slot >= 0) {
      starts[slot] = start;
      ends[slot] = j;
    }
    j = skipSpace(s, j);
    const d = s.charCodeAt(j);
    if (d === 0x7d) return j + 1;
    if (d !== 0x2c) return BAD;
    j = skipSpace(s, j + 1);
  }
}

function has(slot: number): boolean {
  return starts[slot] !== -1;
}

function isStringAt(s: string, slot: number): boolean {
  return s.charCodeAt(starts[slot] as number) === 0x22;
}

/** The string value in `slot` (decoded exactly as `JSON.parse` would). */
function stringAt(s: string, slot: number): string {
  const start = starts[slot] as number;
  const end = ends[slot] as number;
  const text = s.slice(start + 1, end - 1);
  return text.includes("\\") ? (JSON.parse(s.slice(start, end)) as string) : text;
}

/** The id in `slot` when it is a string, a finite number or `null`; `undefined` for any other value. */
function idAt(s: string, slot: number): JsonRpcId | undefined {
  const c = s.charCodeAt(starts[slot] as number);
  if (c === 0x22) return stringAt(s, slot);
  if (c === 0x6e) return null;
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    const n = Number(s.slice(starts[slot], ends[slot]));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * Reads `raw` (one line, without its newline) as a JSON-RPC 2.0 frame without parsing it, or
 * returns `null` when the scan cannot read it exactly (see the module comment): then call
 * `classifyFrame`. Every field returned equals what `classifyFrame(raw)` gives.
 */
export function scanFrame(raw: string): FrameScan | null {
  if (raw.length > MAX_SCAN_CHARS) return null;
  starts.fill(-1);
  const i = skipSpace(raw, 0);
  if (raw.charCodeAt(i) !== 0x7b) return null;
  const end = skipObject(raw, i, 0, 0);
  if (end < 0 || skipSpace(raw, end) !== raw.length) return null;
  // classifyMessage's checks, in its order; anything it calls malformed is left to it.
  const version = starts[JSONRPC] as number;
  if (version === -1 || ends[JSONRPC] !== version + 5 || !raw.startsWith('"2.0"', version)) return null;
  const params = has(PARAMS) && raw.charCodeAt(starts[PARAMS] as number) === 0x7b;
  const sessionId =
    params && has(SESSION_ID) && isStringAt(raw, SESSION_ID) ? stringAt(raw, SESSION_ID) : undefined;
  const hasIdempotencyKey = params && has(IDEMPOTENCY_KEY);
  if (has(METHOD)) {
    if (!isStringAt(raw, METHOD)) return null;
    const method = stringAt(raw, METHOD);
    if (!has(ID)) return { kind: "notification", id: undefined, method, sessionId, hasIdempotencyKey };
    const id = idAt(raw, ID);
    if (id === undefined || id === null) return null;
    return { kind: "request", id, method, sessionId, hasIdempotencyKey };
  }
  if (!has(ID)) return null;
  const id = idAt(raw, ID);
  if (id === undefined || has(RESULT) === has(ERROR)) return null;
  if (has(RESULT)) return { kind: "result", id, method: undefined, sessionId, hasIdempotencyKey };
  if (raw.charCodeAt(starts[ERROR] as number) !== 0x7b || !has(CODE) || !has(MESSAGE)) return null;
  const code = raw.charCodeAt(starts[CODE] as number);
  if (!(code === 0x2d || (code >= 0x30 && code <= 0x39)) || !isStringAt(raw, MESSAGE)) return null;
  return { kind: "error", id, method: undefined, sessionId, hasIdempotencyKey };
}
