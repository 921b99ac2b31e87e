/**
 * Idempotency key validation, exactly as the RFD states it: omitted and `null` mean "no key";
 * present, the key is an opaque, case-sensitive string of 1 to 255 characters; any other value
 * is invalid (the Agent MUST answer -32602 and MUST NOT treat it as omitted).
 */

/** The shortest valid key length, in characters. */
export const KEY_MIN_LENGTH = 1;
/** The longest valid key length, in characters. */
export const KEY_MAX_LENGTH = 255;

/** The result of reading `params.idempotencyKey` from a `session/prompt` request. */
export type KeyCheck =
  | { readonly kind: "absent" }
  | { readonly kind: "valid"; readonly key: string }
  | { readonly kind: "invalid"; readonly reason: string };

/**
 * Length in characters. The RFD says "characters"; this project counts Unicode code points
 * (decision: a surrogate pair is one character), so a 255-emoji key is valid.
 */
export function keyLength(key: string): number {
  let n = 0;
  for (const _ of key) n++;
  return n;
}

/** Classifies the raw `idempotencyKey` value of a `session/prompt` params object (pass `undefined` when the field is missing). */
export function checkIdempotencyKey(value: unknown): KeyCheck {
  if (value === undefined || value === null) return { kind: "absent" };
  if (typeof value !== "string") {
    const shown = Array.isArray(value) ? "array" : typeof value;
    return { kind: "invalid", reason: `idempotencyKey must be a string, got ${shown}` };
  }
  const length = keyLength(value);
  if (length < KEY_MIN_LENGTH) return { kind: "invalid", reason: "idempotencyKey must not be empty" };
  if (length > KEY_MAX_LENGTH) {
    return {
      kind: "invalid",
      reason: `idempotencyKey is ${length} characters; at most ${KEY_MAX_LENGTH} allowed`,
    };
  }
  return { kind: "valid", key: value };
}

/** Reads and checks the key of a `session/prompt` params value of unknown shape. */
export function checkPromptParamsKey(params: unknown): KeyCheck {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return { kind: "absent" };
  return checkIdempotencyKey((params as Record<string, unknown>).idempotencyKey);
}
