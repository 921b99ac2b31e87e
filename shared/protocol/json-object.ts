/** The one check every reader of untrusted JSON asks first: is this value a plain object? */

/** A parsed JSON object whose fields are not checked yet. */
export type JsonObject = Record<string, unknown>;

/** True when the value is a plain object: not null, not an array, not a primitive. */
export function isJsonObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The value as a plain object, or null when it is not one. */
export function asJsonObject(v: unknown): JsonObject | null {
  return isJsonObject(v) ? v : null;
}

/** The text parsed as JSON when it is a plain object; null when it is not JSON or not an object. */
export function parseJsonObject(text: string): JsonObject | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  return asJsonObject(v);
}
