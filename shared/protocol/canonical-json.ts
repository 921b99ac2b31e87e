/**
 * Canonical JSON: object keys sorted at every depth, so two prompts compare equal whatever their key
 * order. One writer serves the analyzer (prompt digests) and the key ledger (prompt fingerprints).
 */
import { writeJson } from "../json/json-writer.js";
import { TextSha256 } from "./sha256-text.js";

/**
 * Canonical forms up to this many characters are their own digest; a longer one is hashed as it is
 * written (SHA-256 of its code units and its length), so a 100 MB prompt text is never copied whole.
 */
export const CANONICAL_DIGEST_MAX_CHARS = 64 * 1024;

/** JSON with object keys sorted at every depth; nested `undefined` as JSON.stringify has it, a bare one as "undefined". */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const parts: string[] = [];
  writeCanonical(value, (s) => parts.push(s));
  return parts.join("");
}

/**
 * A string equal for two values exactly when their canonical JSON is (up to SHA-256 collisions): the
 * canonical JSON itself up to CANONICAL_DIGEST_MAX_CHARS, else `#sha256:HEX:LENGTH` (no JSON text
 * starts with `#`). The canonical form is hashed as it is written, never held whole.
 */
export function canonicalDigest(value: unknown): string {
  if (value === null || (typeof value !== "object" && typeof value !== "string"))
    return JSON.stringify(value) ?? "undefined";
  const parts: string[] = [];
  let length = 0;
  let hash: TextSha256 | null = null;
  writeCanonical(value, (s) => {
    length += s.length;
    if (hash) hash.update(s);
    else {
      parts.push(s);
      if (length <= CANONICAL_DIGEST_MAX_CHARS) return;
      hash = new TextSha256();
      for (const p of parts) hash.update(p);
      parts.length = 0;
    }
  });
  // TypeScript cannot see the callback's assignment to `hash`.
  const done = hash as TextSha256 | null;
  return done ? `#sha256:${done.hex()}:${length}` : parts.join("");
}

/** Writes the canonical JSON of `value` to `write`, piece by piece (iteratively: see `writeJson`). */
function writeCanonical(value: unknown, write: (piece: string) => void): void {
  writeJson(value, write, definedKeys);
}

/** An object's keys whose values are not undefined, sorted (JSON leaves undefined members out). */
function definedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
}
