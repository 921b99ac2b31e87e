/** UUID helpers (RFC 9562): v5 name-based ids for derived message ids, v4 random ids. */

import { sha1 } from "./sha1.js";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its canonical 8-4-4-4-12 hex form. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

function uuidBytes(uuid: string): Uint8Array {
  if (!isUuid(uuid)) throw new Error(`not a UUID: ${uuid}`);
  const hex = uuid.replace(/-/g, "");
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function formatUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** UTF-8 bytes of a string (shared/ has no TextEncoder type; lone surrogates become U+FFFD). */
export function utf8(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    let cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Uint8Array.from(out);
}

/** UUIDv5 of `name` (UTF-8) in the namespace `namespace` (itself a UUID). */
export function uuidV5(namespace: string, name: string): string {
  const ns = uuidBytes(namespace);
  const nameBytes = utf8(name);
  const input = new Uint8Array(ns.length + nameBytes.length);
  input.set(ns);
  input.set(nameBytes, ns.length);
  const hash = sha1(input).slice(0, 16);
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  return formatUuid(hash);
}

/** The Web Crypto subset both Node 20 and browsers offer as `globalThis.crypto`. */
interface RandomUuidSource {
  randomUUID(): string;
}

/** A random UUIDv4 from `globalThis.crypto.randomUUID()` (Node 20+, browsers); throws where there is none. */
export function randomUuid(): string {
  const source = (globalThis as { crypto?: RandomUuidSource }).crypto;
  if (!source || typeof source.randomUUID !== "function") {
    throw new Error("globalThis.crypto.randomUUID is not available: pass your own key generator");
  }
  return source.randomUUID();
}
