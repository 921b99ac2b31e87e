/** The JSON-RPC and ACP error codes this project names (PROTOCOL-NOTES §6). */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid request object (also the answer to a batch array). */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters; the mandated answer to a malformed `idempotencyKey`. */
  InvalidParams: -32602,
  /** Internal error. */
  InternalError: -32603,
  /** The request was cancelled (`$/cancel_request`, `session/cancel`, `session/close` on held prompts). */
  RequestCancelled: -32800,
  /** Authentication required. */
  AuthRequired: -32000,
  /** Resource not found (`data.sessionId` names the missing session). */
  ResourceNotFound: -32002,
  /** Unsupported protocol version (`data: {requested, supported}`). */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the named error codes. */
export type KnownErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The name of a known code (e.g. `InvalidParams` for -32602), or undefined. */
export function errorCodeName(code: number): string | undefined {
  return NAMES.get(code);
}
