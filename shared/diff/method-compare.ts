/**
 * Other requests by method across two traces: counts, errors, requests with no answer, and the
 * p50/p99 latency of each side (shared/analyzer/latency.ts). More errors is worse, fewer better;
 * another count is a change; latency is shown beside, never marked (it is noise between runs).
 */
import type { MethodDiff, MethodFigures } from "./diff-model.js";

/** Every method of either side, A's order first. */
export function compareMethods(
  a: ReadonlyMap<string, MethodFigures>,
  b: ReadonlyMap<string, MethodFigures>,
): MethodDiff[] {
  const methods = [...a.keys(), ...[...b.keys()].filter((m) => !a.has(m))];
  return methods.map((method) => compareMethod(method, a.get(method) ?? null, b.get(method) ?? null));
}

function compareMethod(method: string, a: MethodFigures | null, b: MethodFigures | null): MethodDiff {
  if (!a) return { method, a, b, mark: "changed", reason: "only in B" };
  if (!b) return { method, a, b, mark: "changed", reason: "only in A" };
  if (b.errors > a.errors)
    return { method, a, b, mark: "worse", reason: `${b.errors - a.errors} more error(s)` };
  if (b.errors < a.errors)
    return { method, a, b, mark: "better", reason: `${a.errors - b.errors} fewer error(s)` };
  if (b.noAnswer > a.noAnswer)
    return { method, a, b, mark: "worse", reason: `${b.noAnswer - a.noAnswer} more without an answer` };
  if (b.noAnswer < a.noAnswer)
    return { method, a, b, mark: "better", reason: `${a.noAnswer - b.noAnswer} fewer without an answer` };
  if (a.requests !== b.requests)
    return {
      method,
      a,
      b,
      mark: "changed",
      reason: `${b.requests - a.requests >= 0 ? "+" : ""}${b.requests - a.requests} request(s)`,
    };
  return { method, a, b, mark: "same", reason: "as many requests and errors" };
}
