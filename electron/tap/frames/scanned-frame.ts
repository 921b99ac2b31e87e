import {
  classifyFrame,
  type Frame,
  type JsonRpcErrorObject,
  type JsonRpcId,
} from "../../../shared/protocol/frame.js";
import { type FrameScan, scanFrame } from "../../../shared/protocol/frame-scan.js";

/**
 * A frame the tap classified by a scan: `kind`, `id` and `method` are read, the parsed parts
 * (`params`, `result`, `error`, `message`) are parsed from its text the first time one is asked for.
 */
class ScannedFrame {
  readonly kind: FrameScan["kind"];
  readonly id: JsonRpcId | undefined;
  readonly method: string | undefined;
  /** What the scan read (`sessionId`, whether an idempotencyKey is there). */
  readonly scan: FrameScan;
  private parsed: Frame | undefined;

  constructor(
    private readonly raw: string,
    scan: FrameScan,
  ) {
    this.kind = scan.kind;
    this.id = scan.id;
    this.method = scan.method;
    this.scan = scan;
  }

  private full(): Record<string, unknown> {
    this.parsed ??= classifyFrame(this.raw);
    // The scan agrees with classifyFrame (frame-scan.property.test.ts), so this is never malformed.
    return (this.parsed as { message: Record<string, unknown> }).message;
  }

  get message(): Record<string, unknown> {
    return this.full();
  }

  get params(): unknown {
    return this.full().params;
  }

  get result(): unknown {
    return this.full().result;
  }

  get error(): JsonRpcErrorObject {
    this.full();
    return (this.parsed as { error: JsonRpcErrorObject }).error;
  }
}

/**
 * `raw` (one line without its newline) classified as `classifyFrame` does, with the parse deferred:
 * a line the scan reads gives a frame whose parsed parts are parsed on first use; any other line is
 * parsed now.
 */
export function classifyLazily(raw: string): Frame {
  const scan = scanFrame(raw);
  // ScannedFrame has exactly the members of the Frame variant of its kind (getters for the parsed ones).
  return scan ? (new ScannedFrame(raw, scan) as unknown as Frame) : classifyFrame(raw);
}
