/**
 * Which format a file is, from its content (never its name): our trace, or one of the formats
 * `convertToTrace` reads. Works on the whole text or on its first bytes (a prefix of a large file).
 */

import { isJsonObject, parseJsonObject } from "../../protocol/json-object.js";
import { TRACE_FORMAT } from "../record.js";

/** Every format `analyze`, `convert` and the UI's Import read. */
export type InterchangeFormat =
  | typeof TRACE_FORMAT
  | "zed-log"
  | "sacp-trace"
  | "acp-inspector-jsonl"
  | "har"
  | "acp-devtools-export";

/** A format, or why the text is none of them. */
export type Detection = { readonly format: InterchangeFormat } | { readonly error: string };

/** What each format is called in messages and banners. */
export const FORMAT_LABELS: Readonly<Record<InterchangeFormat, string>> = {
  [TRACE_FORMAT]: "acp-retry-inspector trace",
  "zed-log": "Zed ACP log (Copy All)",
  "sacp-trace": "sacp/symposium trace (.jsons)",
  "acp-inspector-jsonl": "ACP-inspector recording (JSONL)",
  har: "HAR (browser network capture)",
  "acp-devtools-export": "acp-devtools session export (JSON)",
};

const SACP_TYPES = new Set(["request", "response", "notification"]);

const SUPPORTED =
  "expected an acp-retry-inspector trace, a Zed ACP log (Copy All), a sacp/symposium .jsons trace, an ACP-inspector JSONL recording, a HAR file or an acp-devtools session export";

/** Detects the format of `text` (the whole file, or a prefix of it). */
export function detectFormat(text: string): Detection {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body === "") return { error: "the file is empty" };
  if (body.startsWith("[")) {
    // Zed pretty-prints: the first object's first keys are its `_direction` and `_type`.
    if (/^\[\s*(\]|\{\s*"_(direction|type)"\s*:)/.test(body)) return { format: "zed-log" };
    return { error: `a JSON array that is not a Zed ACP log; ${SUPPORTED}` };
  }
  if (!body.startsWith("{")) return { error: `not JSON; ${SUPPORTED}` };
  const firstLine = body.slice(0, body.indexOf("\n") === -1 ? body.length : body.indexOf("\n"));
  const first = parseJsonObject(firstLine.trim());
  if (first) {
    if (first.format === TRACE_FORMAT) return { format: TRACE_FORMAT };
    if (isJsonObject(first.log)) return { format: "har" };
    if (Array.isArray(first.messages) && ("session" in first || "version" in first))
      return { format: "acp-devtools-export" };
    if ("direction" in first && "json" in first) return { format: "acp-inspector-jsonl" };
    if (typeof first.type === "string" && SACP_TYPES.has(first.type) && "from" in first && "to" in first)
      return { format: "sacp-trace" };
    if (typeof first.format === "string")
      return {
        error: `the first line is a "${first.format}" header, not a "${TRACE_FORMAT}" one; ${SUPPORTED}`,
      };
    return { error: `the first line is a JSON object of no known format; ${SUPPORTED}` };
  }
  // A multi-line JSON object: a HAR names its "log" among the first keys.
  if (/^\{\s*"log"\s*:\s*\{/.test(body)) return { format: "har" };
  // acp-devtools' SessionExport starts with its version, session or messages (pretty-printed or not).
  if (/^\{\s*"(version|session|messages)"\s*:/.test(body) && /"messages"\s*:\s*\[/.test(body))
    return { format: "acp-devtools-export" };
  // A first line longer than the prefix read: go by the keys each writer puts first.
  if (!body.includes("\n")) {
    if (/^\{\s*"format"\s*:\s*"acp-retry-inspector-trace"/.test(body)) return { format: TRACE_FORMAT };
    if (/^\{\s*"type"\s*:\s*"(request|response|notification)"\s*,\s*"ts"/.test(body))
      return { format: "sacp-trace" };
    if (/^\{\s*"ts"\s*:\s*("[^"]*"|[0-9.]+)\s*,\s*"direction"\s*:/.test(body))
      return { format: "acp-inspector-jsonl" };
  }
  return { error: `the first line is not a JSON object of a known format; ${SUPPORTED}` };
}
