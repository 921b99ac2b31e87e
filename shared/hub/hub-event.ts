import type { TraceHeader, TraceRecord } from "../trace/record.js";

/** What the hub tells UIs about: taps coming and going, their records, and gaps in what a tap sent. */
export type HubEventBody =
  | {
      readonly kind: "tap-attached";
      readonly traceId: string;
      readonly tapId: string;
      readonly header: TraceHeader;
      /** Hub wall clock, epoch ms. */
      readonly at: number;
    }
  | { readonly kind: "tap-detached"; readonly traceId: string; readonly reason: string; readonly at: number }
  /** One record of a tap's trace; `record.seq` is the tap's own seq, `seq` of the event is the hub's. */
  | { readonly kind: "record"; readonly traceId: string; readonly record: TraceRecord }
  /** The tap's link dropped `dropped` records while no hub was reachable (the tap's own file has them). */
  | { readonly kind: "tap-gap"; readonly traceId: string; readonly dropped: number; readonly at: number };

/** A hub event with the hub's sequence number (only grows, from 1). */
export type HubEvent = HubEventBody & { readonly seq: number };

/** A trace file the hub holds on disk. */
export interface TraceSummary {
  /** File-name-safe id; `GET /api/traces/<id>` exports it. */
  readonly id: string;
  readonly bytes: number;
  /** Last modification, ISO 8601. */
  readonly modifiedAt: string;
  /** The trace header, when readable. */
  readonly header?: TraceHeader;
  /** True while a tap is attached and still writing it. */
  readonly live: boolean;
  /** True for traces imported over HTTP rather than streamed by a tap. */
  readonly imported: boolean;
}
