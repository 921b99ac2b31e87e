import { classifyFrame, type Frame } from "./frame.js";

/**
 * A cheap check for the commonest line on a busy connection: a JSON-RPC notification (an agent
 * streaming `session/update`s). `scanNotification` walks the line's bytes once without building
 * anything and answers only when it is sure; `classifyAsciiLine` then makes the frame without
 * parsing the line, and parses it only if its `params` or `message` are read. Anything else is
 * classified by `classifyFrame`, so the result is always what `classifyFrame` would say.
 */

/** Deeper nesting is left to JSON.parse (the scanner keeps its stack small). */
const MAX_DEPTH = 64;

/** The top-level members a notification is told by. */
enum Member {
  Other,
  Jsonrpc,
  Method,
  Id,
}

/** Where `scanNotification` found the method's text (between its quotes). */
export interface MethodSpan {
  start: number;
  end: number;
}

/**
 * Whether the bytes `b[from, to)` are certainly a JSON-RPC 2.0 notification: valid JSON text
 * whose value is an object with `"jsonrpc":"2.0"`, a string `method` and no `id` (the last of
 * duplicate members counting, as in JSON.parse). When it returns true, `method` holds where the
 * method's characters are (it has no escape). False when it is not one, or when the scanner
 * cannot tell cheaply (escapes in a top-level name or in the method, deep nesting): then ask
 * `classifyFrame`. Bytes of 0x80 and above count as text inside strings, as UTF-8 would.
 */
export function scanNotification(b: Uint8Array, from: number, to: number, method: MethodSpan): boolean {
  // Open containers: true for an object, false for an array.
  const stack: boolean[] = [];
  let i = skipSpace(b, from, to);
  if (i === to || b[i] !== 0x7b) return false;
  let jsonrpc = false;
  let hasMethod = false;
  // The top-level member whose value is being read.
  let member = Member.Other as Member; // (set by readName: keep TS from narrowing it here)
  // Reads a member name at i and the colon after it; false when the line is not (surely) one.
  const readName = (): boolean => {
    const name = i;
    i = i < to && b[i] === 0x22 ? stringEnd(b, i, to) : -1;
    if (i < 0) return false;
    member = stack.length === 1 ? topLevelMember(b, name, i) : Member.Other;
    if (member === Member.Id) return false;
    if (member === Member.Jsonrpc) jsonrpc = false;
    else if (member === Member.Method) hasMethod = false;
    i = afterColon(b, i, to);
    return i >= 0;
  };
  // Each pass reads one value at i, then what follows it up to the next value.
  for (;;) {
    if (i >= to) return false;
    const start = i;
    const c = b[i] as number;
    let opened = false;
    if (c === 0x7b || c === 0x5b) {
      i = skipSpace(b, i + 1, to);
      if (i < to && b[i] === (c === 0x7b ? 0x7d : 0x5d)) {
        i++;
      } else {
        if (stack.length === MAX_DEPTH) return false;
        stack.push(c === 0x7b);
        opened = true;
      }
    } else if (c === 0x22) {
      i = stringEnd(b, i, to);
      if (i < 0) return false;
      if (stack.length === 1 && member === Member.Jsonrpc) {
        jsonrpc = i - start === 5 && b[start + 1] === 0x32 && b[start + 2] === 0x2e && b[start + 3] === 0x30;
      } else if (stack.length === 1 && member === Member.Method) {
        for (let j = start + 1; j < i - 1; j++) if (b[j] === 0x5c) return false;
        hasMethod = true;
        method.start = start + 1;
        method.end = i - 1;
      }
    } else if (c === 0x74) {
      if (i + 4 > to || b[i + 1] !== 0x72 || b[i + 2] !== 0x75 || b[i + 3] !== 0x65) return false;
      i += 4;
    } else if (c === 0x66) {
      if (i + 5 > to || b[i + 1] !== 0x61 || b[i + 2] !== 0x6c || b[i + 3] !== 0x73 || b[i + 4] !== 0x65)
        return false;
      i += 5;
    } else if (c === 0x6e) {
      if (i + 4 > to || b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) return false;
      i += 4;
    } else {
      i = numberEnd(b, i, to);
      if (i < 0) return false;
    }
    if (opened) {
      // The first member or element of the container just opened.
      if (stack[stack.length - 1] && !readName()) return false;
      continue;
    }
    // A value ended at i: close what ends here, then expect the next member or element.
    for (;;) {
      i = skipSpace(b, i, to);
      if (stack.length === 0) return i === to && jsonrpc && hasMethod;
      if (i === to) return false;
      const object = stack[stack.length - 1];
      const d = b[i];
      if (d === (object ? 0x7d : 0x5d)) {
        stack.pop();
        i++;
        continue;
      }
      if (d !== 0x2c) return false;
      i = skipSpace(b, i + 1, to);
      if (object && !readName()) return false;
      break;
    }
  }
}

const JSONRPC = [0x6a, 0x73, 0x6f, 0x6e, 0x72, 0x70, 0x63];
const METHOD = [0x6d, 0x65, 0x74, 0x68, 0x6f, 0x64];

/** Which member the name `b[start, end)` (quotes included) is; a name with an escape counts as `id` (unknown: give up). */
function topLevelMember(b: Uint8Array, start: number, end: number): Member {
  for (let j = start + 1; j < end - 1; j++) if (b[j] === 0x5c) return Member.Id;
  const length = end - start - 2;
  if (length === 2) return b[start + 1] === 0x69 && b[start + 2] === 0x64 ? Member.Id : Member.Other;
  const name = length === 7 ? JSONRPC : length === 6 ? METHOD : null;
  if (name === null) return Member.Other;
  for (let k = 0; k < length; k++) if (b[start + 1 + k] !== name[k]) return Member.Other;
  return length === 7 ? Member.Jsonrpc : Member.Method;
}

/** Index of the value after the `:` following a member name that ended at `i`, or -1. */
function afterColon(b: Uint8Array, i: number, to: number): number {
  const colon = skipSpace(b, i, to);
  return colon < to && b[colon] === 0x3a ? skipSpace(b, colon + 1, to) : -1;
}

/** Index after the string starting at `i` (a `"`), or -1 when it is not a valid JSON string. */
function stringEnd(b: Uint8Array, i: number, to: number): number {
  for (let j = i + 1; j < to; j++) {
    const c = b[j] as number;
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) continue;
    if (++j >= to) return -1;
    const e = b[j];
    if (e === 0x75) {
      if (j + 4 >= to) return -1;
      for (let k = 0; k < 4; k++) if (!isHex(b[++j] as number)) return -1;
    } else if (
      e !== 0x22 &&
      e !== 0x5c &&
      e !== 0x2f &&
      e !== 0x62 &&
      e !== 0x66 &&
      e !== 0x6e &&
      e !== 0x72 &&
      e !== 0x74
    ) {
      return -1;
    }
  }
  return -1;
}

/** Index after the JSON number starting at `i`, or -1 when there is none. */
function numberEnd(b: Uint8Array, i: number, to: number): number {
  let j = i;
  if (b[j] === 0x2d) j++;
  if (j >= to) return -1;
  const first = b[j] as number;
  if (first === 0x30) j++;
  else if (first >= 0x31 && first <= 0x39) j = digitsEnd(b, j + 1, to);
  else return -1;
  if (j < to && b[j] === 0x2e) {
    if (j + 1 >= to || !isDigit(b[j + 1] as number)) return -1;
    j = digitsEnd(b, j + 1, to);
  }
  if (j < to && (b[j] === 0x65 || b[j] === 0x45)) {
    j++;
    if (j < to && (b[j] === 0x2b || b[j] === 0x2d)) j++;
    if (j >= to || !isDigit(b[j] as number)) return -1;
    j = digitsEnd(b, j, to);
  }
  return j;
}

function digitsEnd(b: Uint8Array, i: number, to: number): number {
  let j = i;
  while (j < to && isDigit(b[j] as number)) j++;
  return j;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Index of the first byte at or after `i` (before `to`) that is not JSON whitespace. */
function skipSpace(b: Uint8Array, i: number, to: number): number {
  let j = i;
  while (j < to) {
    const c = b[j];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return j;
    j++;
  }
  return j;
}

/** A notification frame that parses its text only when `params` or `message` is read. */
class ScannedNotification {
  readonly kind = "notification" as const;
  private parsed: Record<string, unknown> | undefined;

  constructor(
    readonly method: string,
    private readonly raw: string,
  ) {}

  get message(): Record<string, unknown> {
    this.parsed ??= JSON.parse(this.raw) as Record<string, unknown>;
    return this.parsed;
  }

  get params(): unknown {
    return this.message.params;
  }
}

const found: MethodSpan = { start: 0, end: 0 };

/**
 * `classifyFrame(raw)` for a line whose text `raw` is ASCII and is `b[from, from + raw.length)`,
 * without parsing it when `scanNotification` can tell it is a notification.
 */
export function classifyAsciiLine(raw: string, b: Uint8Array, from: number): Frame {
  if (!scanNotification(b, from, from + raw.length, found)) return classifyFrame(raw);
  return new ScannedNotification(raw.slice(found.start - from, found.end - from), raw);
}
