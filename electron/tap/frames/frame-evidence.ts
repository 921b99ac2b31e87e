import { isUtf8 } from "node:buffer";
import type { Frame } from "../../../shared/protocol/frame.js";
import type { FrameFlag } from "../../../shared/trace/record.js";
import { classifyLazily } from "./scanned-frame.js";

/** Longest line the tap holds and records whole (the SDK's message cap); longer lines are streamed. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** How much of an oversize line its record keeps. */
export const OVERSIZE_PREFIX_BYTES = 64 * 1024;

/** The bytes-derived fields of a `FrameRecord`. */
export interface FrameEvidence {
  raw: string;
  encoding?: "base64";
  flags?: FrameFlag[];
  bytes?: number;
}

/**
 * A whole line as `LineSplitter` gives it (its bytes, with the `\n` when `terminated`) turned into
 * the evidence fields of its record, and classified as JSON-RPC (`frame` is `null` when the line
 * is not UTF-8; a scan reads its kind, id and method, and its params are parsed only when asked
 * for, see `classifyLazily`): the exact text, or base64 with `not-utf8`; `malformed` when it is not a JSON-RPC
 * 2.0 message; `unterminated` when the stream ended before its `\n`.
 */
export function classifyLine(
  bytes: Buffer,
  terminated: boolean,
): { evidence: FrameEvidence; frame: Frame | null } {
  const end = terminated ? bytes.length - 1 : bytes.length;
  // A trailing "\n" (ASCII) cannot change whether the bytes before it are UTF-8: test them with it.
  if (!isUtf8(bytes)) {
    const flags: FrameFlag[] = terminated
      ? ["malformed", "not-utf8"]
      : ["malformed", "not-utf8", "unterminated"];
    return { evidence: { raw: bytes.toString("base64", 0, end), encoding: "base64", flags }, frame: null };
  }
  const raw = bytes.toString("utf8", 0, end);
  const frame = classifyLazily(raw);
  const evidence: FrameEvidence = { raw };
  if (frame.kind === "malformed") evidence.flags = terminated ? ["malformed"] : ["malformed", "unterminated"];
  else if (!terminated) evidence.flags = ["unterminated"];
  return { evidence, frame };
}

/** Evidence of a line too long to record whole: a prefix (cut at a character boundary), `oversize` and the full length. */
export function oversizeEvidence(prefix: Buffer, bytes: number, terminated: boolean): FrameEvidence {
  const flags: FrameFlag[] = ["oversize"];
  let evidence: FrameEvidence | null = null;
  // A prefix may end inside a UTF-8 sequence: drop up to 3 trailing bytes before giving up on text.
  for (let cut = 0; cut <= 3 && cut < prefix.length; cut++) {
    const head = prefix.subarray(0, prefix.length - cut);
    if (isUtf8(head)) {
      evidence = { raw: head.toString("utf8") };
      break;
    }
  }
  if (evidence === null) {
    flags.push("not-utf8");
    evidence = { raw: prefix.toString("base64"), encoding: "base64" };
  }
  if (!terminated) flags.push("unterminated");
  evidence.flags = flags;
  evidence.bytes = bytes;
  return evidence;
}
