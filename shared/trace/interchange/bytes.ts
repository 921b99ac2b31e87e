/**
 * UTF-8 and base64 without platform globals (shared/ has neither TextDecoder nor atob): frames in
 * other tools' files come as text or base64, and our trace keeps non-UTF-8 bytes as base64.
 */

/** The text of `bytes` when they are valid UTF-8 (no overlongs, no surrogates), else null. */
export function utf8Decode(bytes: Uint8Array): string | null {
  let out = "";
  let chunk: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    let cp: number;
    let n: number;
    if (b < 0x80) {
      cp = b;
      n = 0;
    } else if (b >= 0xc2 && b < 0xe0) {
      cp = b & 0x1f;
      n = 1;
    } else if (b >= 0xe0 && b < 0xf0) {
      cp = b & 0x0f;
      n = 2;
    } else if (b >= 0xf0 && b < 0xf5) {
      cp = b & 0x07;
      n = 3;
    } else return null;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (
      (n === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
      (n === 3 && (cp < 0x10000 || cp > 0x10ffff))
    )
      return null;
    chunk.push(cp);
    if (chunk.length >= 0x4000) {
      out += String.fromCodePoint(...chunk);
      chunk = [];
    }
    i += n + 1;
  }
  return out + String.fromCodePoint(...chunk);
}

/** The UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as in every encoder). */
export function utf8Encode(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let cp = text.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    else if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else
      out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return Uint8Array.from(out);
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUES = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Base64 (RFC 4648, padded) of `bytes`. */
export function bytesBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[n >> 18] as string;
    out += ALPHABET[(n >> 12) & 63] as string;
    out += b === undefined ? "=" : (ALPHABET[(n >> 6) & 63] as string);
    out += c === undefined ? "=" : (ALPHABET[n & 63] as string);
  }
  return out;
}

/** The bytes of a base64 text (padding optional, whitespace ignored), or null when it is not base64. */
export function base64Bytes(text: string): Uint8Array | null {
  const s = text.replace(/\s+/g, "").replace(/=+$/, "");
  if (s.length % 4 === 1) return null;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of s) {
    const v = VALUES.get(ch);
    if (v === undefined) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
