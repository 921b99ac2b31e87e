/**
 * `demo-agent --otel`: the turn spans sent with the official OpenTelemetry JS SDK to where the
 * standard variables say (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT, _PROTOCOL, _HEADERS,
 * OTEL_SERVICE_NAME), as any instrumented agent would: what `proxy --collect-agent-telemetry`
 * gives the agent it spawns. Loaded only with `--otel`.
 */
import { type Context, context, type Span, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { traceParentOfParams } from "../../../shared/agent-telemetry/trace-context.js";
import { TOOL_VERSION } from "../../platform/version.js";
import type { TurnSpan, TurnTelemetry } from "./turn-telemetry.js";

/** Batches go out this often, so a UI shows a turn's spans soon after it ended. */
const BATCH_DELAY_MS = 200;
/** How long the agent waits for its last spans at exit. */
const FLUSH_WAIT_MS = 5_000;

async function exporter(env: NodeJS.ProcessEnv): Promise<SpanExporter> {
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  // With no options, each exporter reads the endpoint and headers from the environment itself.
  return protocol === "http/json"
    ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter()
    : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
}

/** The SDK-backed turn telemetry, or null (with the reason on stderr) when no endpoint is set. */
export async function startOtelTurns(env: NodeJS.ProcessEnv = process.env): Promise<TurnTelemetry | null> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    process.stderr.write("demo-agent: --otel: OTEL_EXPORTER_OTLP_ENDPOINT is not set; no spans are sent\n");
    return null;
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME || "acp-retry-inspector-demo-agent",
      "service.version": TOOL_VERSION,
    }),
    spanProcessors: [new BatchSpanProcessor(await exporter(env), { scheduledDelayMillis: BATCH_DELAY_MS })],
  });
  const tracer = provider.getTracer("acp-retry-inspector-demo-agent", TOOL_VERSION);

  const wrap = (span: Span, ctx: Context): TurnSpan => ({
    child(name) {
      const childCtx = trace.setSpan(ctx, span);
      return wrap(tracer.startSpan(name, {}, childCtx), childCtx);
    },
    end(attributes, error) {
      if (attributes) span.setAttributes(attributes);
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      span.end();
    },
  });

  return {
    turn(sessionId, params) {
      const caller = traceParentOfParams(params);
      const parent = caller
        ? trace.setSpanContext(context.active(), {
            traceId: caller.traceId,
            spanId: caller.parentId,
            traceFlags: caller.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : context.active();
      const span = tracer.startSpan(
        "prompt turn",
        { attributes: { "gen_ai.conversation.id": sessionId } },
        parent,
      );
      return wrap(span, parent);
    },
    async flush() {
      // Bounded: a receiver that is gone must not keep the agent from exiting.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        // shutdown, not forceFlush: forceFlush does not wait for an export the batch timer already began.
        provider.shutdown().catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, FLUSH_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
