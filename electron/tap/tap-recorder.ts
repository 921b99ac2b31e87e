import type { FaultRule } from "../../shared/faults/fault-rule.js";
import type { TraceHeader } from "../../shared/trace/record.js";
import { rendezvousPath } from "../hub-client/hub-paths.js";
import { readRendezvous } from "../hub-client/rendezvous.js";
import { OtelSink } from "../otel/otel-sink.js";
import type { SpanExport } from "../otel/span-export.js";
import { RecordSequencer } from "../trace/record-sequencer.js";
import { TraceFanout } from "../trace/trace-fanout.js";
import { TraceWriter } from "../trace/trace-writer.js";
import { FaultInjector } from "./faults/fault-injector.js";
import { createHubLink, type HubLink } from "./hub-link/hub-link.js";
import { HubSink } from "./hub-link/hub-sink.js";

/**
 * When a hub is already running, how long a tap waits for its armed rules before it starts the
 * session, so rules armed before the session apply from its first frame. Never waits without a hub.
 */
export const HUB_STARTUP_WAIT_MS = 500;

/** What a tap records to: the trace file, the span export, the hub. */
export interface RecorderOptions {
  readonly header: TraceHeader;
  /** The trace file; `null`: none (the folder could not be used, and the user was told). */
  readonly path: string | null;
  /** Fault rules armed locally (`--fault`), first given, first applied. */
  readonly rules: readonly FaultRule[];
  /** A span export being started (`--otlp`), or null. */
  readonly spanExport: Promise<SpanExport | null> | null;
  readonly includePrompts: boolean;
  /** Never look for a hub. */
  readonly noHub: boolean;
  /** The tap's own messages (stderr). */
  readonly say: (message: string) => void;
}

/** The trace, the fault rules and the hub link one tap shares. */
export interface TapRecorder {
  readonly trace: TraceFanout;
  readonly faults: FaultInjector;
  readonly link: HubLink | null;
  /** Resolves once a running hub's rules arrived (at most `HUB_STARTUP_WAIT_MS`), at once without a live hub. */
  readonly hubReady: Promise<void>;
  /** The hub's id for this trace while attached, else null. */
  traceId(): string | null;
}

/** Opens the trace file, attaches the span export and the hub link, and arms the local rules. */
export function startRecorder(o: RecorderOptions): TapRecorder {
  const { header, path, say } = o;
  const writers =
    path === null
      ? []
      : [new TraceWriter(path, header, { onError: (m) => say(`${m}; still forwarding, without a trace`) })];
  const trace = new TraceFanout(new RecordSequencer(), writers, say);
  if (o.spanExport)
    trace.attach(new OtelSink(header, o.spanExport, { includePrompts: o.includePrompts }, say));
  const faults = new FaultInjector(trace);
  if (o.rules.length > 0) faults.armLocal(o.rules);
  let link: HubLink | null = null;
  let hubReady = Promise.resolve();
  let traceId: string | null = null;
  if (!o.noHub) {
    const found = readRendezvous(rendezvousPath());
    // the hub link will not use it either (hub-finder.ts); say why once, here
    if (found.kind === "untrusted") say(`${found.reason}; this tap links to no hub through it`);
    let ready = () => {};
    if (found.kind === "live") {
      hubReady = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, HUB_STARTUP_WAIT_MS);
        ready = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    link = createHubLink({ header, holdWhileDetached: false });
    trace.attach(new HubSink(link));
    link.onFaultRules((hubRules) => {
      faults.setHubRules(hubRules);
      ready();
    });
    link.onAttach((attached, id) => {
      traceId = attached ? (id ?? null) : null;
      trace.emit({
        type: "note",
        level: "info",
        text: attached ? `attached to the hub as trace ${id ?? "?"}` : "the hub went away; still forwarding",
      });
    });
  }
  return { trace, faults, link, hubReady, traceId: () => traceId };
}
