/** Reading raw request params with -32602 for anything malformed. */

import { ErrorCode } from "../../../shared/keys/peer-choices.js";
import { RpcError } from "../rpc/json-rpc-peer.js";

/** The params as an object, or -32602. */
export function paramsObject(params: unknown): Record<string, unknown> {
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    throw new RpcError(ErrorCode.invalidParams, "Invalid params: expected an object");
  }
  return params as Record<string, unknown>;
}

/** A required string field, or -32602. */
export function requireString(params: Record<string, unknown>, field: string): string {
  const value = params[field];
  if (typeof value !== "string")
    throw new RpcError(ErrorCode.invalidParams, `Invalid params: ${field} must be a string`);
  return value;
}

/** The -32002 error for an unknown session. */
export function sessionNotFound(sessionId: unknown): RpcError {
  return new RpcError(ErrorCode.resourceNotFound, "Resource not found: session", { sessionId });
}
