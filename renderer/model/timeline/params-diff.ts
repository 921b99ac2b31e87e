/**
 * A diff of attempts' request params: every JSON path whose value is not the same in all attempts.
 * Retries of one key must carry the same prompt, so a differing `prompt` path stands out.
 */

/** One differing path with each attempt's value as compact JSON (undefined when absent). */
export interface ParamsDifference {
  readonly path: string;
  readonly values: readonly (string | undefined)[];
  /** True for paths under `prompt`: the same key with a different prompt. */
  readonly prompt: boolean;
}

function flatten(value: unknown, path: string, out: Map<string, string>): void {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    if (entries.length === 0) out.set(path, JSON.stringify(value));
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
    return;
  }
  out.set(path, JSON.stringify(value));
}

/** The params of a JSON-RPC request frame's bytes, or undefined when they do not parse. */
export function paramsOf(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return (JSON.parse(raw) as { params?: unknown }).params;
  } catch {
    return undefined;
  }
}

/** The paths that differ between the attempts' params, in first-seen order. */
export function diffParams(params: readonly unknown[]): ParamsDifference[] {
  const flat = params.map((p) => {
    const m = new Map<string, string>();
    if (p !== undefined) flatten(p, "", m);
    return m;
  });
  const paths = new Set<string>();
  for (const m of flat) for (const k of m.keys()) paths.add(k);
  const out: ParamsDifference[] = [];
  for (const path of paths) {
    const values = flat.map((m) => m.get(path));
    if (values.every((v) => v === values[0])) continue;
    out.push({ path, values, prompt: path === "prompt" || path.startsWith("prompt.") });
  }
  return out;
}
