/**
 * The replay engine: starts the agent behind the real tap (`proxy`, spawned as a child of this
 * process, so the replay is a trace like any live session; for `--url`, a tap front forwarding to
 * the remote agent) and plays the planned client frames over its link (`tap-link.ts`), waiting for the answers the recorded client had seen before each, mapping session ids,
 * and answering the agent's own requests. Remarks go to the tap's trace as notes (stdio: descriptor 3).
 */
import type { Writable } from "node:stream";
import { classifyFrame } from "../../shared/protocol/frame.js";
import { AgentAnswers, type PermissionPolicy } from "../../shared/replay/agent-answers.js";
import { rewriteFrame } from "../../shared/replay/frame-rewrite.js";
import { type ConnId, connId, type ReplayPlan } from "../../shared/replay/replay-plan.js";
import { openTapLink, type ReplayAgent, type TapLink } from "./tap-link.js";

/** How the replay runs. */
export interface ReplayOptions {
  /** argv that starts this CLI (`node cli.js`). */
  readonly cli: readonly string[];
  /** The agent command the tap spawns, or the remote agent's URL (`--url`). */
  readonly agent: ReplayAgent;
  readonly tracePath: string;
  readonly source: { readonly path: string; readonly sha256: string };
  /** `proxy --fault` rules to arm. */
  readonly faultRules: readonly string[];
  readonly permissions: PermissionPolicy;
  /** `recorded`: keep the source's gaps between client frames, each at most `maxGapMs`. */
  readonly timing: "asap" | "recorded";
  readonly maxGapMs: number;
  /** How long to wait for an answer the next frame depends on. */
  readonly answerTimeoutMs: number;
  readonly noHub: boolean;
  /** Requests whose answer a planned fault drops: not waited for. */
  readonly unawaited?: ReadonlySet<ConnId>;
  /** Where the tap's and agent's stderr go. */
  readonly errOut: Writable;
}

/** How a replay ended. */
export interface ReplayOutcome {
  /** True when every planned frame was sent and the session was closed by the replay. */
  readonly completed: boolean;
  readonly sent: number;
  /** The tap's exit status (the agent's), or the signal. */
  readonly exit: { code: number | null; signal: string | null };
  /** One line each: answers that did not come in time, mapped sessions, agent requests answered. */
  readonly remarks: readonly string[];
  /** Why it stopped early, when it did. */
  readonly reason?: string;
}

/** Plays `plan` against the agent; resolves when the tap has exited. */
export async function runReplay(plan: ReplayPlan, o: ReplayOptions): Promise<ReplayOutcome> {
  const proxyArgs = [
    "--trace",
    o.tracePath,
    "--replay-of",
    `${o.source.sha256}:${o.source.path}`,
    ...(o.noHub ? ["--no-hub"] : []),
    ...o.faultRules.flatMap((r) => ["--fault", r]),
  ];
  const remarks: string[] = [];
  let gone = false;
  let goneWhy = "";
  let wake = () => {};
  let link: TapLink | null = null;
  const note = (text: string) => {
    remarks.push(text);
    link?.note(`replay: ${text.replace(/[\r\n]+/g, " ")}`);
  };
  let player: Player | null = null;
  const pending: string[] = [];
  try {
    link = await openTapLink({
      cli: o.cli,
      proxyArgs,
      agent: o.agent,
      errOut: o.errOut,
      onLine: (line) => {
        if (player) player.received(line);
        else pending.push(line);
        wake();
      },
      onGone: (why) => {
        if (!gone) goneWhy = why;
        gone = true;
        wake();
      },
    });
  } catch (err) {
    return {
      completed: false,
      sent: 0,
      exit: { code: null, signal: null },
      remarks,
      reason: (err as Error).message,
    };
  }
  const p = new Player(plan, o, link, note);
  player = p;
  for (const line of pending.splice(0)) p.received(line);
  const waitUntil = async (done: () => boolean, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (gone) return false;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 1000));
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    return true;
  };
  let sent = 0;
  let reason: string | undefined;
  let lastTs: number | null = null;
  for (const step of plan.steps) {
    const ok = await waitUntil(() => step.waitFor.every((k) => p.answered(k)), o.answerTimeoutMs);
    if (gone) break;
    if (!ok)
      note(
        `source #${step.seq}: sent after ${o.answerTimeoutMs} ms without the answer(s) it followed in the recording (${step.waitFor.filter((k) => !p.answered(k)).join(", ")})`,
      );
    if (o.timing === "recorded" && lastTs !== null) {
      const gap = Math.min(Math.max(0, step.ts - lastTs), o.maxGapMs);
      if (gap > 0) await waitUntil(() => false, gap);
      if (gone) break;
    }
    lastTs = step.ts;
    p.send(step);
    sent++;
    // Backpressure: a tap that stops reading holds the replay, not this process's memory.
    if (link.needsDrain) await link.drained();
  }
  if (!gone) {
    // The recorded client saw these answered: wait for them before closing, as it did, each at
    // most --answer-timeout-ms (the wait ends when that long passes with no answer at all).
    let missing = p.expectedAnswers().filter((k) => !p.answered(k));
    while (missing.length > 0 && !gone) {
      const had = p.answerCount;
      const progressed = await waitUntil(() => p.answerCount > had, o.answerTimeoutMs);
      missing = missing.filter((k) => !p.answered(k));
      if (!progressed) break;
    }
    if (missing.length > 0 && !gone)
      note(
        `closed after ${o.answerTimeoutMs} ms with no answer, without ${missing.length} answer(s) the recording had`,
      );
  }
  const completed = !gone && sent === plan.steps.length;
  if (!completed)
    reason = `${goneWhy || "the tap exited"} after ${sent} of ${plan.steps.length} client frames`;
  const exit = await link.end();
  return { completed, sent, exit, remarks, ...(reason !== undefined && { reason }) };
}

/** The replay's state on its one connection to the tap: ids sent, answers seen, sessions mapped. */
class Player {
  /** Source ConnId -> the id sent on the replay's connection. */
  private readonly sentIds = new Map<ConnId, string | number>();
  /** The replay's id (as JSON) -> source ConnId. */
  private readonly bySentId = new Map<string, ConnId>();
  private readonly answeredIds = new Set<ConnId>();
  private readonly usedIds = new Set<string>();
  private readonly sessions = new Map<string, string>();
  private readonly answers: AgentAnswers;
  private readonly unawaited: ReadonlySet<ConnId>;

  constructor(
    private readonly plan: ReplayPlan,
    o: ReplayOptions,
    private readonly link: TapLink,
    private readonly note: (text: string) => void,
  ) {
    this.answers = new AgentAnswers(plan.answers, o.permissions);
    this.unawaited = o.unawaited ?? new Set();
  }

  answered(k: ConnId): boolean {
    return this.answeredIds.has(k) || !this.sentIds.has(k) || this.unawaited.has(k);
  }

  /** How many of the replay's requests have been answered so far. */
  get answerCount(): number {
    return this.answeredIds.size;
  }

  /** Requests sent whose answer the recorded client saw, for the final wait. */
  expectedAnswers(): ConnId[] {
    return [...this.sentIds.keys()].filter(
      (k) => (this.plan.seenAnswered.has(k) || this.plan.sessionMakers.has(k)) && !this.unawaited.has(k),
    );
  }

  send(step: ReplayPlan["steps"][number]): void {
    const f = step.frame;
    let raw = step.raw;
    if (f.kind !== "malformed") {
      let newId: string | number | undefined;
      if (f.kind === "request") {
        const k = connId(step.conn, f.id);
        let id: string | number = f.id;
        if (this.usedIds.has(JSON.stringify(id))) {
          id = `replay:${step.conn}:${String(f.id)}`;
          newId = id;
          this.note(
            `source #${step.seq}: request id ${JSON.stringify(f.id)} of connection ${step.conn} sent as ${JSON.stringify(id)} (already used on this connection)`,
          );
        }
        this.usedIds.add(JSON.stringify(id));
        this.sentIds.set(k, id);
        this.bySentId.set(JSON.stringify(id), k);
      }
      const r = rewriteFrame(raw, f.message, this.sessions, newId);
      if (r.bounded)
        this.note(`source #${step.seq}: too large or deep to map every sessionId; the rest sent as recorded`);
      raw = r.raw;
    }
    this.link.write(raw);
  }

  received(line: string): void {
    const f = classifyFrame(line);
    if (f.kind === "request") {
      const a = this.answers.answer(f.method, f.params);
      this.link.write(JSON.stringify({ jsonrpc: "2.0", id: f.id, ...a.body }));
      this.note(`answered the agent's ${f.method} (id ${JSON.stringify(f.id)}) ${a.how}`);
      return;
    }
    if (f.kind !== "result" && f.kind !== "error") return;
    const k = this.bySentId.get(JSON.stringify(f.id));
    if (k === undefined) return;
    this.answeredIds.add(k);
    const recorded = this.plan.sessionMakers.get(k);
    const now = f.kind === "result" ? (f.result as { sessionId?: unknown } | null)?.sessionId : undefined;
    if (
      recorded !== undefined &&
      typeof now === "string" &&
      recorded !== now &&
      !this.sessions.has(recorded)
    ) {
      this.sessions.set(recorded, now);
      this.note(`session ${recorded} of the recording is ${now} in this replay`);
    }
  }
}
