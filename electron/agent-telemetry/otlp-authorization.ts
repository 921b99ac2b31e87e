/**
 * The receiver's credential check. `OTEL_EXPORTER_OTLP_HEADERS` values are percent-encoded (the
 * receiver hands out `authorization=Bearer%20TOKEN`), and an SDK that does not decode them sends the
 * header as written: Claude Code sends `Authorization: Bearer%20TOKEN`. The header is decoded
 * first, then the decoded token is compared in constant time.
 */
import { bearerMatches } from "../platform/front-token.js";

/** The `Authorization` header with percent escapes decoded; as given when it has none or a broken one. */
export function decodedAuthorization(header: string | undefined): string | undefined {
  if (header === undefined || !header.includes("%")) return header;
  try {
    return decodeURIComponent(header);
  } catch {
    // A broken escape decodes to nothing: the header stays as sent, and matches no token.
    return header;
  }
}

/** Whether `header` carries `token` as a bearer credential, percent-encoded or not; constant time on the decoded token. */
export function otlpBearerMatches(header: string | undefined, token: string): boolean {
  return bearerMatches(decodedAuthorization(header), token);
}
