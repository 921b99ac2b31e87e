import { OtlpConfigError, resolveOtlpTarget } from "../otel/otlp-endpoint.js";
import type { OtelExport } from "../otel/span-export.js";
import { CliError } from "./command.js";

/** The `--otlp` options `proxy` and `serve` share. */
export interface OtlpOptions {
  readonly url?: string;
  readonly protocol?: string;
  readonly includePrompts: boolean;
}

/**
 * Starts the span export the options (then the OTEL_EXPORTER_OTLP_* variables) ask for, or returns
 * null when none is asked for. A bad URL or protocol is a usage error (exit 2). The SDK is loaded
 * only here, so runs without `--otlp` never pay for it.
 */
export async function startOtlpExport(o: OtlpOptions, say: (m: string) => void): Promise<OtelExport | null> {
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
  const { OtelExport } = await import("../otel/span-export.js");
  return OtelExport.start(target, { warn: say });
}

/** Closes the export after the run and says what it did; a collector that is not done is not waited for. */
export async function finishOtlpExport(otel: OtelExport | null, say: (m: string) => void): Promise<void> {
  if (!otel) return;
  await otel.close();
  say(otel.describe());
  // Retries to a dead collector hold timers the SDK does not cancel: once the command has
  // returned (its exit status set), exit rather than wait for them. Callers call this last.
  if (otel.unfinished) setTimeout(() => process.exit(), 200).unref();
}
