/**
 * How `replay` answers a request the agent makes (session/request_permission, fs/*, terminal/*):
 * with the client's recorded answer to the next recorded request of that method when it fits, else
 * by the `--permissions` policy. Each answer says which, for the trace's note.
 */
import type { RecordedAnswer } from "./replay-plan.js";

/** `--permissions`: what a permission request without a fitting recorded answer gets. */
export type PermissionPolicy = "allow" | "deny" | "recorded";

/** An answer's body and the words of the note that records how it was chosen. */
export interface AgentAnswer {
  readonly body: { readonly result: unknown } | { readonly error: { code: number; message: string } };
  readonly how: string;
}

interface PermissionOption {
  readonly optionId?: unknown;
  readonly kind?: unknown;
}

const optionsOf = (params: unknown): PermissionOption[] => {
  const o = (params as { options?: unknown } | null)?.options;
  return Array.isArray(o) ? (o.filter((x) => x !== null && typeof x === "object") as PermissionOption[]) : [];
};

/** The chosen optionId of a recorded permission answer, if it chose one. */
const chosenOption = (result: unknown): unknown => {
  const outcome = (result as { outcome?: { outcome?: unknown; optionId?: unknown } } | null)?.outcome;
  return outcome?.outcome === "selected" ? outcome.optionId : undefined;
};

/** Gives each recorded answer once, in order, per method. */
export class AgentAnswers {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly recorded: ReadonlyMap<string, readonly RecordedAnswer[]>,
    private readonly policy: PermissionPolicy,
  ) {}

  /** The answer to the agent's request `method` with `params`. */
  answer(method: string, params: unknown): AgentAnswer {
    const list = this.recorded.get(method) ?? [];
    const i = this.next.get(method) ?? 0;
    const rec = list[i];
    if (rec !== undefined && this.fits(method, rec, params)) {
      this.next.set(method, i + 1);
      return {
        body: rec.body as AgentAnswer["body"],
        how: `as recorded (the ${ordinal(i + 1)} recorded ${method} answer)`,
      };
    }
    const why =
      rec === undefined
        ? `the recording has no ${ordinal(i + 1)} ${method} answer`
        : "the recorded answer does not fit (its option is not offered)";
    if (method === "session/request_permission" && this.policy !== "recorded") {
      const options = optionsOf(params);
      const want =
        this.policy === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
      const pick = want.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);
      const result =
        pick !== undefined
          ? { outcome: { outcome: "selected", optionId: pick.optionId } }
          : { outcome: { outcome: "cancelled" } };
      return { body: { result }, how: `by --permissions ${this.policy} (${why})` };
    }
    return {
      body: { error: { code: -32603, message: `replay: ${why}; --permissions ${this.policy}` } },
      how: `with an error (${why}; --permissions ${this.policy} gives no answer for it)`,
    };
  }

  /** A recorded permission answer fits when the option it chose is offered again; other methods by order. */
  private fits(method: string, rec: RecordedAnswer, params: unknown): boolean {
    if (method !== "session/request_permission" || !("result" in rec.body)) return true;
    const chosen = chosenOption(rec.body.result);
    return chosen === undefined || optionsOf(params).some((o) => o.optionId === chosen);
  }
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${n % 10 > 3 ? "th" : s}`;
}
