/**
 * Judging one client case from its run: the client's requests with what it got for each, from the
 * analyzer's outcome model (`client-wire.ts`), and the analyzer's Client-issue verdicts on the same
 * trace. A resend is only a request sent after a loss the model records. Each case says pass, fail (with the
 * requests that broke the rule) or skip ("not applicable: ..." when the client's command never
 * exercised the rule, e.g. it sent no key, or only one prompt). Pure.
 */

import type { VerdictHit } from "../../analyzer/timeline-model.js";
import type { VerdictName } from "../../analyzer/verdicts.js";
import type { TraceRecord } from "../../trace/record.js";
import type { ClientCaseName } from "../conformance-result.js";
import type { ClientRunModel } from "./client-outcomes.js";
import {
  answeredOk,
  type ClientWire,
  type Exchange,
  keyed,
  type PromptExchange,
  readClientWire,
} from "./client-wire.js";

/** How one case fared. */
export interface ClientJudgement {
  readonly status: "pass" | "fail" | "skip";
  readonly message: string;
  /** The requests (with their answers) that show a failure. */
  readonly evidence: readonly Exchange[];
}

/** What the judge gets: the run's wire (with the model's outcomes) and the analyzer's verdicts on its trace. */
export interface ClientRunEvidence {
  readonly wire: ClientWire;
  readonly verdicts: readonly VerdictHit[];
}

/** The evidence of a run from its trace records and the analyzer's model of the same records. */
export function clientRunEvidence(records: Iterable<TraceRecord>, model: ClientRunModel): ClientRunEvidence {
  return {
    wire: readClientWire(records, model),
    verdicts: [...model.submissions.flatMap((s) => s.verdicts), ...model.requests.flatMap((r) => r.verdicts)],
  };
}

/** Whether the model records that no answer to `e` will reach the client. */
function lost(e: Exchange): boolean {
  return e.got.kind === "lost";
}

/** The analyzer verdict that breaks each case's rule, when the analyzer has one. */
const ANALYZER_VERDICT: Partial<Record<ClientCaseName, VerdictName>> = {
  "key-same-prompt": "key-reused-different-prompt",
  "retry-same-key": "new-key-on-resend",
  "reconnect-same-key": "new-key-on-resend",
  "restart-same-key": "new-key-on-resend",
  "unkeyed-not-resent": "unkeyed-resend",
  "session-new-not-resent": "duplicating-resend",
};

const pass = (message: string): ClientJudgement => ({ status: "pass", message, evidence: [] });
const skip = (message: string): ClientJudgement => ({ status: "skip", message, evidence: [] });
const fail = (message: string, evidence: readonly Exchange[]): ClientJudgement => ({
  status: "fail",
  message,
  evidence,
});

function ref(e: Exchange): string {
  return `#${e.conn} id ${JSON.stringify(e.id)}`;
}

function showKey(key: unknown): string {
  if (key === undefined || key === null) return "no key";
  const text = typeof key === "string" ? JSON.stringify(key) : `${JSON.stringify(key)} (${typeof key})`;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Characters as the RFD counts them (code points, not UTF-16 units). */
function length(s: string): number {
  return [...s].length;
}

/** The first prompt whose answer the client never saw: the one the run's fault took. */
function lostPrompt(wire: ClientWire): PromptExchange | undefined {
  return wire.prompts.find((p) => lost(p));
}

/** The prompt whose answer was lost, or the skip that says there is none. */
function lostPromptOrSkip(wire: ClientWire): PromptExchange | ClientJudgement {
  return lostPrompt(wire) ?? skip("not applicable: no prompt lost its answer in this run");
}

/** The keyed prompt whose answer was lost, or the skip that says why there is none. */
function keyedLostPrompt(wire: ClientWire): PromptExchange | ClientJudgement {
  const first = lostPromptOrSkip(wire);
  if (!("status" in first) && !keyed(first))
    return skip("not applicable: the prompt whose answer was lost had no key (see unkeyed-not-resent)");
  return first;
}

/** A key the analyzer reads as a key (it treats an invalid one as none, which `key-length` judges). */
function validKey(key: unknown): boolean {
  return typeof key === "string" && length(key) >= 1 && length(key) <= 255;
}

/**
 * Where the model says `first`'s answer was lost (its dropped answer, or the connection's or the
 * agent's end). Only an attempt sent after it can be a resend: one sent before is another
 * submission, whatever its text. Infinity when no loss is recorded.
 */
function lossSeq(first: Exchange): number {
  return first.got.kind === "lost" ? first.got.seq : Number.POSITIVE_INFINITY;
}

/**
 * The later prompts that resend `first`: the same key (when it had one), or the same text in the
 * same session under another key (or none), sent after its answer was lost and before any attempt
 * of it got an answer the client saw.
 */
function resendsOf(wire: ClientWire, first: PromptExchange) {
  const lostAt = lossSeq(first);
  const later = wire.prompts.filter((p) => p.seq > first.seq && p.sessionId === first.sessionId);
  const sameKey = keyed(first) ? later.filter((p) => p.key === first.key) : [];
  // Any answer the client saw settles it: a success, or an error (which says "not inserted").
  const settled = sameKey.find((p) => p.got.kind === "answer");
  const settledAt = settled?.got.kind === "answer" ? settled.got.seq : Number.POSITIVE_INFINITY;
  const otherKey = later.filter(
    (p) =>
      p.text === first.text && p.seq > lostAt && p.seq < settledAt && (!keyed(first) || p.key !== first.key),
  );
  return { sameKey, otherKey };
}

/** The seq of the answer the client got for `e` (Infinity: none reached it). */
function answerSeq(e: Exchange): number {
  return e.got.kind === "answer" ? e.got.seq : Number.POSITIVE_INFINITY;
}

function noPrompt(wire: ClientWire): ClientJudgement | undefined {
  if (wire.prompts.length === 0)
    return skip(
      "not applicable: the client sent no session/prompt (its command must submit a prompt, e.g. demo-client --prompt hello)",
    );
  return undefined;
}

function judgeOwn(name: ClientCaseName, wire: ClientWire): ClientJudgement {
  const none = noPrompt(wire);
  switch (name) {
    case "key-length": {
      if (none) return none;
      const sent = wire.prompts.filter(keyed);
      if (sent.length === 0)
        return skip("not applicable: the client sent no idempotencyKey (a v2 client without keys)");
      const bad = sent.filter((p) => typeof p.key !== "string" || length(p.key) < 1 || length(p.key) > 255);
      if (bad.length > 0)
        return fail(
          `the client sent ${bad.map((p) => `${ref(p)} with key ${showKey(p.key)}${typeof p.key === "string" ? ` of ${length(p.key)} characters` : ""}`).join(", ")}`,
          bad,
        );
      return pass(`${sent.length} keyed prompt(s), every key a string of 1 to 255 characters`);
    }
    case "new-key-same-text": {
      if (none) return none;
      if (!wire.prompts.some(keyed))
        return skip("not applicable: the client sent no idempotencyKey (a v2 client without keys)");
      // B is a new submission of A's text when A had already been answered when B was sent.
      const pairs: [PromptExchange, PromptExchange][] = [];
      for (const b of wire.prompts) {
        const a = wire.prompts.find(
          (p) =>
            p.seq < b.seq &&
            p.sessionId === b.sessionId &&
            p.text === b.text &&
            keyed(p) &&
            keyed(b) &&
            answeredOk(p) &&
            answerSeq(p) < b.seq,
        );
        if (a) pairs.push([a, b]);
      }
      const reused = pairs.filter(([a, b]) => a.key === b.key);
      if (reused.length > 0)
        return fail(
          reused
            .map(
              ([a, b]) =>
                `${ref(b)} sent the text of ${ref(a)} again, after its answer, under its key ${showKey(a.key)}`,
            )
            .join("; "),
          reused.flat(),
        );
      if (pairs.length === 0)
        return skip(
          "not applicable: the client did not submit the same text twice (give it the same prompt twice, e.g. demo-client --prompt hello --prompt hello)",
        );
      return pass(`the same text was submitted again ${pairs.length} time(s), each time under a new key`);
    }
    case "key-same-prompt": {
      if (none) return none;
      const sent = wire.prompts.filter(keyed);
      if (sent.length === 0)
        return skip("not applicable: the client sent no idempotencyKey (a v2 client without keys)");
      const bad = sent.filter((p) =>
        sent.some(
          (q) => q.seq < p.seq && q.sessionId === p.sessionId && q.key === p.key && q.text !== p.text,
        ),
      );
      if (bad.length > 0) {
        const first = sent.find((q) => q.key === bad[0]?.key) as PromptExchange;
        return fail(
          `${bad.map(ref).join(", ")} carried key ${showKey(first.key)} of ${ref(first)} with a different prompt`,
          [first, ...bad],
        );
      }
      return pass(`${new Set(sent.map((p) => p.key)).size} key(s), each sent with one prompt only`);
    }
    case "retry-same-key":
    case "reconnect-same-key":
    case "restart-same-key": {
      const first = none ?? keyedLostPrompt(wire);
      if ("status" in first) return first;
      const { sameKey, otherKey } = resendsOf(wire, first);
      if (otherKey.length > 0)
        return fail(
          `${ref(otherKey[0] as PromptExchange)} resent the prompt of ${ref(first)}, whose answer was lost, under ${showKey(otherKey[0]?.key)} instead of its key ${showKey(first.key)}`,
          [first, otherKey[0] as PromptExchange],
        );
      if (sameKey.length === 0)
        return skip("not applicable: the client did not resend the prompt (see the resend cases)");
      const conns = [...new Set(sameKey.map((p) => p.conn))];
      return pass(
        `resent ${sameKey.length} time(s) with the same key ${showKey(first.key)} (connection ${conns.map((c) => `#${c}`).join(", ")})`,
      );
    }
    case "resend-lost-answer": {
      const first = none ?? keyedLostPrompt(wire);
      if ("status" in first) return first;
      const { sameKey, otherKey } = resendsOf(wire, first);
      const again = [...sameKey, ...otherKey].sort((a, b) => a.seq - b.seq)[0];
      if (!again)
        return fail(`the client never resent ${ref(first)}, whose answer was dropped, before it ended`, [
          first,
        ]);
      return pass(`${ref(first)} was resent as ${ref(again)}`);
    }
    case "unkeyed-not-resent": {
      const first = none ?? lostPromptOrSkip(wire);
      if ("status" in first) return first;
      if (keyed(first)) return skip("not applicable: the client keyed the prompt whose answer was lost");
      const { otherKey } = resendsOf(wire, first);
      const unkeyed = otherKey.filter((p) => !keyed(p));
      if (unkeyed.length > 0)
        return fail(
          `${ref(unkeyed[0] as PromptExchange)} resent ${ref(first)} without a key after its answer was lost: the agent cannot tell it from a new prompt`,
          [first, unkeyed[0] as PromptExchange],
        );
      return pass(`${ref(first)} had no key and was not resent without one`);
    }
    case "resume-after-disconnect":
    case "resume-after-restart": {
      const first = none ?? keyedLostPrompt(wire);
      if ("status" in first) return first;
      const { sameKey, otherKey } = resendsOf(wire, first);
      const again = [...sameKey, ...otherKey]
        .filter((p) => p.conn !== first.conn)
        .sort((a, b) => a.seq - b.seq)[0];
      const gone = name === "resume-after-restart" ? "the agent was killed" : "the connection was closed";
      if (!again) {
        const later = wire.exchanges.some((e) => e.conn > first.conn);
        return fail(
          later
            ? `${gone} instead of answering ${ref(first)}; the client came back but never resent it`
            : `${gone} instead of answering ${ref(first)}; the client never came back to resend it`,
          [first],
        );
      }
      const resume = wire.exchanges.find(
        (e) =>
          e.conn === again.conn &&
          e.seq < again.seq &&
          (e.method === "session/resume" || e.method === "session/load") &&
          e.params?.sessionId === first.sessionId,
      );
      if (!resume)
        return fail(
          `${ref(again)} resent ${ref(first)} on connection #${again.conn} without resuming the session first (no session/resume before it)`,
          [first, again],
        );
      if (!answeredOk(resume) || answerSeq(resume) > again.seq)
        return fail(
          `${ref(again)} resent ${ref(first)} before ${resume.method} ${ref(resume)} was answered with success`,
          [first, resume, again],
        );
      return pass(`${resume.method} ${ref(resume)} was answered, then ${ref(again)} resent ${ref(first)}`);
    }
    case "session-new-not-resent": {
      const first = wire.exchanges.find((e) => e.method === "session/new" && e.conn === 1 && lost(e));
      if (!first)
        return skip("not applicable: the client sent no session/new (it may resume a session it knows)");
      const params = JSON.stringify(first.params ?? null);
      const again = wire.exchanges.find(
        (e) => e.seq > first.seq && e.method === "session/new" && JSON.stringify(e.params ?? null) === params,
      );
      if (again)
        return fail(
          `${ref(again)} resent session/new ${ref(first)}, whose answer was lost, with the same params: it may create a second session`,
          [first, again],
        );
      return pass(`session/new ${ref(first)} lost its answer and was not resent`);
    }
  }
}

/**
 * Whether a resend verdict's frames show a prompt sent after a loss the model records (an attempt
 * sent before any answer was lost is a submission of its own, never a resend; with no recorded loss
 * there is nothing to resend). Other verdicts: true.
 */
function followsLoss(wire: ClientWire, hit: VerdictHit): boolean {
  if (hit.name !== "new-key-on-resend" && hit.name !== "unkeyed-resend") return true;
  const prompts = wire.prompts.filter((p) => hit.seqs.includes(p.seq));
  const first = prompts.find((p) => lost(p));
  if (!first) return false;
  const lostAt = lossSeq(first);
  return prompts.some((p) => p.seq > lostAt && (!keyed(first) || p.key !== first.key));
}

/** Judges case `name` of a run: its own checks, then the analyzer's verdict for the rule (when it has one). */
export function judgeClientCase(name: ClientCaseName, run: ClientRunEvidence): ClientJudgement {
  const own = judgeOwn(name, run.wire);
  if (own.status === "fail") return own;
  const verdict = ANALYZER_VERDICT[name];
  // With an invalid key in the run, the analyzer's view of keys differs from the wire's: not used.
  const comparable = run.wire.prompts.every((p) => !keyed(p) || validKey(p.key));
  const hit =
    verdict && comparable
      ? run.verdicts.find((v) => v.name === verdict && followsLoss(run.wire, v))
      : undefined;
  if (!hit) return own;
  const evidence = run.wire.exchanges.filter((e) => e.frameSeqs.some((s) => hit.seqs.includes(s)));
  return fail(
    `the analyzer found ${hit.name}: ${hit.detail} (the case's own checks: ${own.message})`,
    evidence,
  );
}
