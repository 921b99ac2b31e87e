/**
 * `replay --as agent`'s matching: which recorded request a live client request stands for. By
 * method, in recorded order, and for a keyed request by idempotency key: the first live key met
 * takes the recorded key of the next recorded submission not yet taken, and every later request
 * under that live key matches the recorded requests under its recorded key (so a resend with the
 * same key gets the recorded retry's answer, the same messageId). A new key on a resend finds no
 * submission left, and is told so. Pure; its position is plain data, kept across agent respawns.
 */
import type { AgentScript, RecordedExchange } from "./agent-script.js";

/** Where the replay stands: what it used and how live keys map. JSON, for the state file. */
export interface MatchPosition {
  /** Exchange indexes already used. */
  used: number[];
  /** Live key -> recorded key (`null`: a recorded prompt without a key). */
  keys: [string, string | null][];
}

/** The exchange a live request stands for, or why none does. */
export type MatchResult = { readonly exchange: RecordedExchange } | { readonly unanswerable: string };

/** A new position: nothing used. */
export function startPosition(): MatchPosition {
  return { used: [], keys: [] };
}

/** Matches live requests to the script, moving the position on. */
export class AgentMatcher {
  private readonly used: Set<number>;
  private readonly keys: Map<string, string | null>;
  /** The script's exchanges by method, in order (a live request looks only at its method's). */
  private readonly byMethod = new Map<string, RecordedExchange[]>();

  constructor(script: AgentScript, position: MatchPosition = startPosition()) {
    this.used = new Set(position.used);
    this.keys = new Map(position.keys);
    for (const x of script.exchanges) {
      const list = this.byMethod.get(x.method);
      if (list) list.push(x);
      else this.byMethod.set(x.method, [x]);
    }
  }

  /** The position now (for the state file). */
  position(): MatchPosition {
    return { used: [...this.used], keys: [...this.keys] };
  }

  /** The recorded exchange for a live request of `method` with `params`, marked used; or why there is none. */
  match(method: string, params: unknown): MatchResult {
    const raw = (params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
    const liveKey = typeof raw === "string" ? raw : undefined;
    const recorded = this.byMethod.get(method) ?? [];
    const unused = recorded.filter((x) => !this.used.has(x.index));
    const recordedCount = recorded.length;
    if (recordedCount === 0) return { unanswerable: `the recording has no ${method} request` };
    let found: RecordedExchange | undefined;
    if (liveKey !== undefined && this.keys.has(liveKey)) {
      const recordedKey = this.keys.get(liveKey) ?? undefined;
      found = unused.find((x) => x.key === recordedKey);
      if (!found)
        return {
          unanswerable: `every recorded ${method} under the key this one maps to (${recordedKey ?? "no key"}) is used: the recording has no further attempt of that submission`,
        };
    } else {
      const taken = new Set(this.keys.values());
      // A new submission: the next recorded one whose key no live key has taken yet.
      found =
        liveKey === undefined
          ? (unused.find((x) => x.key === undefined) ?? unused.find((x) => !taken.has(x.key ?? null)))
          : unused.find((x) => !taken.has(x.key ?? null));
      if (!found)
        return {
          unanswerable:
            unused.length === 0
              ? `all ${recordedCount} recorded ${method} request(s) are used`
              : `the recording has no ${method} submission left for ${liveKey === undefined ? "a request without a key" : "a new key"} (the ${unused.length} left belong to keys already taken)`,
        };
      if (liveKey !== undefined) this.keys.set(liveKey, found.key ?? null);
    }
    this.used.add(found.index);
    return { exchange: found };
  }
}
