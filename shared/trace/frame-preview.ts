/**
 * Large frames reach a UI as a preview: the hub keeps every byte in its trace file, and sends a UI
 * the frame with its long strings cut (`previewFrame`), so a session full of images or big files
 * does not fill the hub's event ring or the window's memory. The preview is still the same JSON-RPC
 * message (its id, method, sessionId and idempotency key are kept), so the UI's analysis of it is
 * the analysis of the frame; a cut string says how long it was and a hash of it, so two different
 * strings never preview as equal. The Details pane fetches the whole frame (`readFrame`).
 */

import { copyJson } from "../json/json-walk.js";
import { isJsonObject } from "../protocol/json-object.js";
import type { FrameRecord } from "./record.js";

/** Frames whose `raw` is longer than this (UTF-8 bytes) are sent to UIs as a preview. */
export const FRAME_PREVIEW_BYTES = 256 * 1024;
/** Strings longer than this are cut in a preview... */
const LONG_STRING = 1024;
/** ...to their first this many characters and a marker. */
const KEPT_CHARS = 256;
/** A preview that is still longer than this (a huge array of small values) keeps only the message's envelope. */
const MAX_PREVIEW_CHARS = 64 * 1024;
/** A frame that is not JSON keeps this many characters. */
const TEXT_PREVIEW_CHARS = 4 * 1024;

/** UTF-8 length of a string (pure: no TextEncoder in shared/). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // a surrogate pair: 2 chars, 4 bytes
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** FNV-1a, 32 bits, over UTF-16 code units, as 8 hex digits. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

function cutString(s: string): string {
  return s.length <= LONG_STRING ? s : `${s.slice(0, KEPT_CHARS)}… [cut: ${s.length} chars, fnv ${fnv(s)}]`;
}

/** The deepest nesting a cut copy keeps; deeper arrays and objects are replaced by a marker. */
const CUT_MAX_DEPTH = 64;

/** A copy of `v` (nested `depth` deep in its frame) with long strings and keys cut and deep values replaced. */
function cutValue(v: unknown, depth: number): unknown {
  return copyJson(
    v,
    { maxDepth: CUT_MAX_DEPTH - depth },
    {
      leaf: (x) => (typeof x === "string" ? cutString(x) : x),
      key: cutString,
      past: () => "[cut: nested too deep]",
    },
  ).value;
}

/** The fields of a JSON-RPC message the analyzer reads, when cutting strings was not enough. */
function envelope(m: Record<string, unknown>, bytes: number): Record<string, unknown> {
  const keep = (o: unknown, names: readonly string[]) => {
    if (o === null || typeof o !== "object" || Array.isArray(o)) return `[cut: ${bytes} bytes]`;
    const src = o as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const n of names) if (n in src) out[n] = cutValue(src[n], 62);
    out["…"] = `[cut: ${bytes} bytes]`;
    return out;
  };
  const out: Record<string, unknown> = {};
  for (const n of ["jsonrpc", "id", "method"]) if (n in m) out[n] = cutValue(m[n], 62);
  if ("params" in m) out.params = keep(m.params, ["sessionId", "idempotencyKey", "messageId", "update"]);
  if ("result" in m) out.result = keep(m.result, ["sessionId", "messageId", "stopReason", "protocolVersion"]);
  if ("error" in m) out.error = keep(m.error, ["code", "message"]);
  return out;
}

/**
 * The frame as a UI gets it: unchanged when `raw` is at most `FRAME_PREVIEW_BYTES`, else with its
 * long strings cut (or only its JSON-RPC envelope, or, for a line that is not JSON, its start) and
 * `previewOf` set to the full length in bytes.
 */
export function previewFrame(r: FrameRecord, threshold = FRAME_PREVIEW_BYTES): FrameRecord {
  // a UTF-8 char is at most 3 bytes per UTF-16 unit: most frames are decided without counting
  if (r.raw.length * 3 <= threshold) return r;
  const bytes = r.encoding === "base64" ? r.raw.length : utf8Length(r.raw);
  if (bytes <= threshold) return r;
  let raw: string;
  let parsed: unknown;
  try {
    parsed = r.encoding === "base64" ? undefined : JSON.parse(r.raw);
  } catch {
    parsed = undefined;
  }
  if (isJsonObject(parsed)) {
    raw = JSON.stringify(cutValue(parsed, 0));
    if (raw.length > MAX_PREVIEW_CHARS) raw = JSON.stringify(envelope(parsed, bytes));
  } else raw = r.raw.slice(0, TEXT_PREVIEW_CHARS);
  return { ...r, raw, previewOf: bytes };
}
