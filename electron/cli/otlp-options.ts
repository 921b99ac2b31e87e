import { OtlpConfigError, resolveOtlpTarget } from "../otel/otlp-endpoint.js";
import { OTLP_MAX_QUEUE, type SpanExport } from "../otel/span-export.js";
import { CliError } from "./command.js";

/** The `--otlp` options `proxy` and `serve` share. */
export interface OtlpOptions {
  readonly url?: string;
  readonly protocol?: string;
  readonly includePrompts: boolean;
}

/** A span export being started: the SDK loads while the session already runs. */
export type OtlpStart = Promise<SpanExport | null>;

/**
 * Starts the span export the options (then the OTEL_EXPORTER_OTLP_* variables) ask for, or returns
 * null when none is asked for. A bad URL or protocol is a usage error (exit 2), thrown at once. The
 * SDK is loaded only here and in the background (about half a second), so runs without `--otlp`
 * never pay for it and runs with it do not wait for it; an SDK that fails to load is reported and
 * the run goes on without the export.
 */
export function startOtlpExport(o: OtlpOptions, say: (m: string) => void): OtlpStart | null {
  let target: ReturnType<typeof resolveOtlpTarget>;
  try {
    target = resolveOtlpTarget(
      {
        ...(o.url !== undefined && { url: o.url }),
        ...(o.protocol !== undefined && { protocol: o.protocol }),
      },
      process.env,
    );
  } catch (err) {
    if (err instanceof OtlpConfigError) throw new CliError(err.message);
    throw err;
  }
  if (target === null) {
    if (o.includePrompts)
      throw new CliError("--otlp-include-prompts needs --otlp URL (or OTEL_EXPORTER_OTLP_ENDPOINT)");
    return null;
  }
  say(`otlp: exporting spans to ${target.url} (${target.protocol}, from ${target.source})`);
  const found = target;
  // Bundled, the SDK runs in a worker thread (its loading, encoding and HTTP retries stay off the
  // thread that forwards frames); from source (no bundled worker), in this thread.
  return import("../otel/worker-export.js")
    .then(async ({ exportWorkerPath, WorkerExport }): Promise<SpanExport> => {
      const worker = exportWorkerPath();
      if (worker !== null) return new WorkerExport(found, worker, { warn: say }, OTLP_MAX_QUEUE);
      const { OtelExport } = await import("../otel/span-export.js");
      return OtelExport.start(found, { warn: say });
    })
    .catch((err: unknown) => {
      say(
        `otlp: cannot start the export (${err instanceof Error ? err.message : String(err)}); going on without it`,
      );
      return null;
    });
}

/** Closes the export after the run and says what it did; a collector that is not done is not waited for. */
export async function finishOtlpExport(
  start: OtlpStart | SpanExport | null,
  say: (m: string) => void,
): Promise<void> {
  const otel = await start;
  if (!otel) return;
  await otel.close();
  say(otel.describe());
  // Retries to a dead collector hold timers the SDK does not cancel: once the command has
  // returned (its exit status set), exit rather than wait for them. Callers call this last.
  if (otel.unfinished) setTimeout(() => process.exit(), 20).unref();
}
