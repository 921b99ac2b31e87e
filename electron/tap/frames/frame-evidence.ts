import { isUtf8 } from "node:buffer";
import { classifyFrame, type Frame } from "../../../shared/protocol/frame.js";
import { classifyAsciiLine } from "../../../shared/protocol/notification-scan.js";
import type { FrameFlag } from "../../../shared/trace/record.js";

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
 * Turns one line (its bytes without the `\n`) into the evidence fields of its record: the exact
 * text, or base64 with `not-utf8`; `malformed` when it is not a JSON-RPC 2.0 message.
 */
export function lineEvidence(body: Buffer, terminated: boolean): FrameEvidence {
  return classifiedLine(body, terminated).evidence;
}

/** `lineEvidence` plus the line classified as JSON-RPC (`null` when it is not UTF-8), parsed once. */
export function classifiedLine(
  body: Buffer,
  terminated: boolean,
): { evidence: FrameEvidence; frame: Frame | null } {
  return classify(body, body.length, terminated);
}

/** `classifiedLine` of a line as `LineSplitter` gives it: its bytes with the `\n` when `terminated` (no copy made). */
export function classifiedSplitLine(
  bytes: Buffer,
  terminated: boolean,
): { evidence: FrameEvidence; frame: Frame | null } {
  return classify(bytes, terminated ? bytes.length - 1 : bytes.length, terminated);
}

/** Classifies the line `bytes[0, end)`; `bytes` may hold its `\n` after it. */
function classify(
  bytes: Buffer,
  end: number,
  terminated: boolean,
): { evidence: FrameEvidence; frame: Frame | null } {
  // A trailing "\n" (ASCII) cannot change whether the bytes before it are UTF-8: test them with it.
  if (isUtf8(bytes)) return classifiedText(bytes.toString("utf8", 0, end), terminated);
  const flags: FrameFlag[] = ["malformed", "not-utf8"];
  if (!terminated) flags.push("unterminated");
  return { evidence: { raw: bytes.toString("base64", 0, end), encoding: "base64", flags }, frame: null };
}

/**
 * `classifiedLine` of a line already known to be UTF-8, given as its text. With `ascii`, the text
 * is all ASCII and is also `ascii[from, from + raw.length)`: a notification is then told from its
 * bytes without parsing it (see `classifyAsciiLine`).
 */
export function classifiedText(
  raw: string,
  terminated: boolean,
  ascii?: Uint8Array,
  from = 0,
): { evidence: FrameEvidence; frame: Frame } {
  const frame = ascii === undefined ? classifyFrame(raw) : classifyAsciiLine(raw, ascii, from);
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
