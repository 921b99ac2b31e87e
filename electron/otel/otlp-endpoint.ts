/**
 * Where and how `--otlp` sends spans: the collector's traces URL and the OTLP/HTTP encoding, from
 * the command line first, then the standard `OTEL_EXPORTER_OTLP_*` variables.
 */

import { hideSecretsInText } from "../../shared/trace/secret-shapes.js";

/** The OTLP/HTTP encodings the export speaks (gRPC is not offered). */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** A resolved export target. */
export interface OtlpTarget {
  /** The full traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Where the URL came from: the flag or the variable's name. */
  readonly source: string;
}

/** The variables read, in order of precedence after the flag. */
export const OTLP_ENV = {
  tracesEndpoint: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  endpoint: "OTEL_EXPORTER_OTLP_ENDPOINT",
  tracesProtocol: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  protocol: "OTEL_EXPORTER_OTLP_PROTOCOL",
} as const;

const PROTOCOLS: readonly OtlpProtocol[] = ["http/protobuf", "http/json"];

/** `--otlp URL` given with a bad value, or a bad variable: the message says which and why. */
export class OtlpConfigError extends Error {}

/** A value for a message: its secrets (query values, userinfo, tokens) hidden, cut. */
function shownUrl(value: string): string {
  const safe = hideSecretsInText(value, (s) => `[hidden: ${s.length} chars]`);
  return JSON.stringify(safe.length > 200 ? `${safe.slice(0, 199)}…` : safe);
}

function httpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OtlpConfigError(`${what} must be an http:// or https:// URL, got ${shownUrl(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OtlpConfigError(`${what} must be an http:// or https:// URL, got ${shownUrl(value)}`);
  // The URL is printed on stderr and shows in ps: a query (`?api_key=`) would leak there (issue 31).
  if (url.search !== "" || url.hash !== "")
    throw new OtlpConfigError(
      `${what} must not carry query parameters or a fragment (they would show in ps and logs), got ${shownUrl(value)}; set OTEL_EXPORTER_OTLP_HEADERS for credentials`,
    );
  if (url.username !== "" || url.password !== "")
    throw new OtlpConfigError(
      `${what} must not carry credentials in the URL (they would show in ps and logs); set OTEL_EXPORTER_OTLP_HEADERS instead`,
    );
  return url;
}

/** A base endpoint (`http://host:4318`) gets `/v1/traces` appended, as OTEL_EXPORTER_OTLP_ENDPOINT does; a URL already ending in it is kept. */
function tracesUrl(base: URL): string {
  if (/\/v1\/traces\/?$/.test(base.pathname)) return base.href;
  const path = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
  return new URL(`${path}v1/traces${base.search}`, base).href;
}

/**
 * The export target, or null when neither the flag nor a variable asks for one. Precedence: the
 * flag `--otlp`, then OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is), then
 * OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` appended); the protocol likewise from
 * `--otlp-protocol`, then the two protocol variables, then `http/protobuf`.
 */
export function resolveOtlpTarget(
  flag: { url?: string; protocol?: string },
  env: Readonly<Record<string, string | undefined>>,
): OtlpTarget | null {
  const protocolFrom = (value: string, what: string): OtlpProtocol => {
    if ((PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
    throw new OtlpConfigError(
      `${what} must be http/protobuf or http/json${value === "grpc" ? " (gRPC is not supported; use the collector's OTLP/HTTP port, 4318)" : ""}, got ${JSON.stringify(value)}`,
    );
  };
  let target: { url: string; source: string } | null = null;
  if (flag.url !== undefined) target = { url: tracesUrl(httpUrl(flag.url, "--otlp")), source: "--otlp" };
  else {
    const traces = env[OTLP_ENV.tracesEndpoint];
    const base = env[OTLP_ENV.endpoint];
    if (traces)
      target = { url: httpUrl(traces, OTLP_ENV.tracesEndpoint).href, source: OTLP_ENV.tracesEndpoint };
    else if (base) target = { url: tracesUrl(httpUrl(base, OTLP_ENV.endpoint)), source: OTLP_ENV.endpoint };
  }
  if (flag.protocol !== undefined && target === null)
    throw new OtlpConfigError("--otlp-protocol needs --otlp URL (or OTEL_EXPORTER_OTLP_ENDPOINT)");
  if (target === null) return null;
  let protocol: OtlpProtocol = "http/protobuf";
  if (flag.protocol !== undefined) protocol = protocolFrom(flag.protocol, "--otlp-protocol");
  else if (env[OTLP_ENV.tracesProtocol])
    protocol = protocolFrom(env[OTLP_ENV.tracesProtocol] as string, OTLP_ENV.tracesProtocol);
  else if (env[OTLP_ENV.protocol])
    protocol = protocolFrom(env[OTLP_ENV.protocol] as string, OTLP_ENV.protocol);
  return { ...target, protocol };
}
