/**
 * A short canonical rendering of untrusted JSON (capabilities, agent info): keys sorted, at most
 * `maxChars` characters and `MAX_DEPTH` levels (so the recursion is at most that deep), with "…"
 * where it was cut: no peer's value costs more than the bound to show.
 */

/** Deeper values are shown as `…`. */
const MAX_DEPTH = 8;

/** `value` as sorted-key JSON, cut to `maxChars` characters (the cut marked with `…`). */
export function boundedJson(value: unknown, maxChars: number): string {
  const out: string[] = [];
  let length = 0;
  let cut = false;
  const push = (s: string): boolean => {
    if (length + s.length > maxChars) {
      cut = true;
      return false;
    }
    out.push(s);
    length += s.length;
    return true;
  };
  const write = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== "object") return push(JSON.stringify(v) ?? "null");
    if (depth >= MAX_DEPTH) return push("…");
    if (Array.isArray(v)) {
      if (!push("[")) return false;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !push(",")) return false;
        if (!write(v[i], depth + 1)) return false;
      }
      return push("]");
    }
    const obj = v as Record<string, unknown>;
    // Sorting is bounded too: a peer's object may have millions of keys.
    const keys = Object.keys(obj);
    if (keys.length > maxChars) {
      cut = true;
      return push("{…}");
    }
    keys.sort();
    if (!push("{")) return false;
    let first = true;
    for (const k of keys) {
      if (obj[k] === undefined) continue;
      if (!first && !push(",")) return false;
      first = false;
      if (!push(`${JSON.stringify(k)}:`)) return false;
      if (!write(obj[k], depth + 1)) return false;
    }
    return push("}");
  };
  write(value, 0);
  return cut ? `${out.join("")}…` : out.join("");
}
