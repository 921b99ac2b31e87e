/**
 * SHA-256 (FIPS 180-4) of text fed in pieces, over its UTF-16 code units (two bytes each, big-endian):
 * two texts hash alike exactly when their code units do, lone surrogates included. Pure, incremental, so
 * a 100 MB canonical prompt is hashed as it is written, never held whole (issue 31).
 */

/** The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** A SHA-256 over the code units of every text passed to `update`, in order. */
export class TextSha256 {
  // Int32Array, not Uint32Array: V8 keeps 32-bit signed words as small integers, unsigned ones past 2^31 as doubles.
  private readonly h = Int32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  /** The message schedule; its first 16 words are the block being filled. */
  private readonly w = new Int32Array(64);
  /** Words of the current block filled so far. */
  private filled = 0;
  /** A code unit waiting for its partner to make a 32-bit word, or -1. */
  private half = -1;
  /** Code units hashed so far. */
  private units = 0;

  /** Hashes the code units of `text` after those already given. */
  update(text: string): void {
    const n = text.length;
    if (n === 0) return;
    const w = this.w;
    this.units += n;
    let i = 0;
    let filled = this.filled;
    if (this.half >= 0) {
      w[filled++] = (this.half << 16) | text.charCodeAt(0);
      this.half = -1;
      i = 1;
      if (filled === 16) {
        this.compress();
        filled = 0;
      }
    }
    for (; i + 1 < n; i += 2) {
      w[filled++] = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
      if (filled === 16) {
        this.compress();
        filled = 0;
      }
    }
    this.filled = filled;
    if (i < n) this.half = text.charCodeAt(i);
  }

  /** The digest in lower-case hex (64 characters); the hash takes no more text afterwards. */
  hex(): string {
    const w = this.w;
    // Padding: a 1 bit, zeros, then the message length in bits as 64 bits.
    w[this.filled++] = this.half >= 0 ? (this.half << 16) | 0x8000 : 0x80000000;
    this.half = -1;
    if (this.filled > 14) {
      w.fill(0, this.filled, 16);
      this.compress();
    }
    w.fill(0, this.filled, 14);
    const bits = this.units * 16;
    w[14] = Math.floor(bits / 0x100000000);
    w[15] = bits | 0;
    this.compress();
    let out = "";
    for (const word of this.h) out += (word >>> 0).toString(16).padStart(8, "0");
    return out;
  }

  /** Folds the filled block into the state. */
  private compress(): void {
    const w = this.w;
    const h = this.h;
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15] as number;
      const y = w[t - 2] as number;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) | 0;
    }
    let a = h[0] as number;
    let b = h[1] as number;
    let c = h[2] as number;
    let d = h[3] as number;
    let e = h[4] as number;
    let f = h[5] as number;
    let g = h[6] as number;
    let hh = h[7] as number;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + (K[t] as number) + (w[t] as number)) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = ((h[0] as number) + a) | 0;
    h[1] = ((h[1] as number) + b) | 0;
    h[2] = ((h[2] as number) + c) | 0;
    h[3] = ((h[3] as number) + d) | 0;
    h[4] = ((h[4] as number) + e) | 0;
    h[5] = ((h[5] as number) + f) | 0;
    h[6] = ((h[6] as number) + g) | 0;
    h[7] = ((h[7] as number) + hh) | 0;
    this.filled = 0;
  }
}
