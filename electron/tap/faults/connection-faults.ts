import { FAULT_ACTION_TABLE } from "../../../shared/faults/fault-actions.js";
import { type FaultRule, UNKEYED_RETRY_WARNING } from "../../../shared/faults/fault-rule.js";
import type { FaultDecision, FaultRuleSet } from "../../../shared/faults/fault-rule-set.js";
import { RequestLedger } from "../../../shared/faults/request-ledger.js";
import type { Frame } from "../../../shared/protocol/frame.js";
import type { Direction } from "../../../shared/trace/record.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FrameDecision, FramePolicy, TapFrame } from "../frames/frame-policy.js";
import { withJsonRpcId } from "./frame-id.js";
import { InspectorRetries, isUnkeyedPrompt, type SeenRequest } from "./inspector-retry.js";
import type { LifecycleActions } from "./lifecycle-actions.js";
import { SessionReplay } from "./session-replay.js";

/** The JSON-RPC id prefix of requests the tap writes itself (the replayed `initialize`). */
export const REPLAY_ID_PREFIX = "acp-retry-inspector:replay:";
/** How long a restart waits for the restarted agent to answer the replayed `initialize`. */
export const REPLAY_TIMEOUT_MS = 10_000;

const FORWARD: FrameDecision = "forward";

/** What a connection asks of the tap's armed rules (the `FaultInjector` that made it). */
export interface ArmedRules {
  /** True while any rule is armed. */
  armed(): boolean;
  /** Decides one frame, consuming a use of the rule that fires. */
  decide(
    frame: Parameters<FaultRuleSet["decide"]>[0],
    dir: Direction,
    answered: Parameters<FaultRuleSet["decide"]>[2],
  ): FaultDecision;
  /** The command-line `retry` rule a client request uses up, if any. */
  takeLocalRetry(req: { method: string; params: unknown }): FaultRule | undefined;
  /** Records one application of `rule` on `conn` and carries out a lifecycle rule. */
  apply(rule: FaultRule, conn: number, frameSeq?: number, detail?: string): void;
}

/**
 * The fault state of one client connection: the request ledger (which request a response answers),
 * the client's last `initialize` and open sessions (replayed after a restart), the inspector's
 * retries, the hold that queues client frames while the agent restarts, and the `FramePolicy` its
 * pumps consult.
 */
export class ConnectionFaults {
  private readonly ledger = new RequestLedger();
  private lastInitialize: { message: Record<string, unknown>; text: string | null } | null = null;
  private hold: Promise<void> | null = null;
  private releaseHold: (() => void) | null = null;
  private readonly tapReplies = new Map<string, (frame: Frame) => void>();
  private replays = 0;
  /** Frames held by a `delay`, each with how to settle it. */
  private readonly holds = new Set<(released: boolean, why: string) => void>();
  private readonly retries: InspectorRetries;
  private readonly sessions = new SessionReplay();
  /** Sessions a tap `session/resume`/`session/load` is restoring: their updates are the tap's, not forwarded. */
  private readonly restoring = new Set<string>();
  /** Requests a `restart-and-retry` resends once the restarted agent has its sessions back. */
  private afterRestart: { req: SeenRequest; why: string }[] = [];

  constructor(
    readonly conn: number,
    private readonly injector: ArmedRules,
    private readonly trace: TraceFanout,
    private readonly actions?: LifecycleActions,
  ) {
    this.retries = new InspectorRetries(conn, trace);
  }

  /** The policy both pumps of the connection consult. */
  readonly policy: FramePolicy = { decide: (f) => this.decide(f) };

  /** Starts a restart: client frames from now on wait until `endRestart`. */
  beginRestart(): void {
    if (this.hold) return;
    this.hold = new Promise((resolve) => {
      this.releaseHold = resolve;
    });
  }

  /** Ends a restart: queued client frames go on, in order, to the new agent. */
  endRestart(): void {
    const release = this.releaseHold;
    this.hold = null;
    this.releaseHold = null;
    release?.();
  }

  /**
   * Everything a restarted agent gets before the client's queued frames: the client's `initialize`
   * (`replayInitialize`), a `session/resume` (v2) or `session/load` (v1 with `loadSession`) for
   * every session the client opened, then the retries a `restart-and-retry` queued.
   */
  async replayAfterRestart(write: (bytes: Buffer) => void, timeoutMs = REPLAY_TIMEOUT_MS): Promise<void> {
    await this.replayInitialize(write, timeoutMs);
    if (this.lastInitialize) {
      const plan = this.sessions.plan();
      if (plan.skipped) this.trace.emit({ type: "note", level: "warn", text: plan.skipped });
      await Promise.all(
        plan.restores.map(async (r) => {
          this.restoring.add(r.sessionId);
          const answer = await this.tapRequest(
            { jsonrpc: "2.0", method: r.method, params: r.params },
            null,
            write,
            timeoutMs,
          );
          this.restoring.delete(r.sessionId);
          if (answer === null || answer.kind === "error") {
            this.trace.emit({
              type: "note",
              level: "warn",
              text: `the restarted agent ${answer === null ? `did not answer the replayed ${r.method} within ${timeoutMs} ms` : `refused the replayed ${r.method} (${answer.error.code})`} for session ${JSON.stringify(r.sessionId)}`,
            });
          }
        }),
      );
    }
    const queued = this.afterRestart;
    this.afterRestart = [];
    for (const q of queued) this.retries.resend(q.req, true, write, q.why);
  }

  /**
   * Replays the client's last `initialize` to a restarted agent with a tap-owned id, recording it
   * (`origin: "tap"`), and resolves when the agent answered (its answer is swallowed and recorded
   * the same way) or after `REPLAY_TIMEOUT_MS`. Resolves at once when the client never initialized.
   */
  async replayInitialize(write: (bytes: Buffer) => void, timeoutMs = REPLAY_TIMEOUT_MS): Promise<void> {
    const init = this.lastInitialize;
    if (!init) return;
    const answer = await this.tapRequest(init.message, init.text, write, timeoutMs);
    if (answer?.kind === "result") this.sessions.agentInitialized(answer.result);
    if (answer === null) {
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `the restarted agent did not answer the replayed initialize within ${timeoutMs} ms; forwarding the client's frames anyway`,
      });
    }
  }

  /**
   * A `delay`: the frame is recorded now (`held`) with its `fault` record, and a second `fault`
   * record with a `fate` follows when it is released, or when `settleHolds` finds it still held.
   */
  private holdFrame(rule: FaultRule, delayMs: number, seen?: { seq?: number }): FrameDecision {
    let frameSeq: number | undefined;
    const since = Date.now();
    const hold = new Promise<boolean>((resolve) => {
      const settle = (released: boolean, why: string) => {
        clearTimeout(timer);
        this.holds.delete(settle);
        const heldMs = Date.now() - since;
        this.trace.emit({
          type: "fault",
          action: rule.action,
          ruleId: rule.id,
          conn: this.conn,
          ...(frameSeq !== undefined && { frameSeq }),
          fate: released ? "released" : "undelivered",
          heldMs,
          detail: released ? `released after ${heldMs} ms` : `never delivered: ${why}`,
        });
        resolve(released);
      };
      const timer = setTimeout(() => settle(true, ""), delayMs);
      this.holds.add(settle);
    });
    return {
      forward: true,
      hold,
      recorded: (seq) => {
        frameSeq = seq;
        if (seen) seen.seq = seq;
        this.injector.apply(rule, this.conn, seq, `holding ${delayMs} ms`);
      },
    };
  }

  /** Every frame still held is never delivered (`why`: the connection closed, the tap was stopped); each gets its `fate` record. */
  settleHolds(why: string): void {
    for (const settle of [...this.holds]) settle(false, why);
  }

  /**
   * `retry`: resends the latest client request the rule matches (a copy with a tap-owned id, its
   * answer recorded and not forwarded). Records the application, or a note when nothing matched.
   */
  retryNow(rule: FaultRule): void {
    const req = this.retries.latest(rule.match);
    if (!req) {
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `fault rule ${rule.id} (retry): connection #${this.conn} has sent no ${rule.match.method ?? "request"} matching the rule yet; nothing resent`,
      });
      return;
    }
    this.injector.apply(
      rule,
      this.conn,
      req.seq,
      this.retryDetail(req, "resent; its answer is recorded, not forwarded"),
    );
    void this.toAgent(req, false, `fault rule ${rule.id} (retry)`);
  }

  private retryDetail(req: SeenRequest, what: string): string {
    const unkeyed = isUnkeyedPrompt(req) ? `; unkeyed: ${UNKEYED_RETRY_WARNING}` : "";
    return `${req.method} ${JSON.stringify(req.id)} ${what}${unkeyed}`;
  }

  /** Resends `req` to the agent now, or once a restart under way has ended. */
  private async toAgent(req: SeenRequest, toClient: boolean, why: string): Promise<void> {
    while (this.hold) await this.hold;
    const send = this.actions?.sendToAgent;
    if (!send) {
      this.trace.emit({
        type: "note",
        level: "warn",
        text: `${why}: this connection cannot write to its agent`,
      });
      return;
    }
    this.retries.resend(req, toClient, send, why);
  }

  /** Sends a request of the tap's own (id `REPLAY_ID_PREFIX`N); resolves with the agent's answer, or null after `timeoutMs`. */
  private tapRequest(
    message: Record<string, unknown>,
    text: string | null,
    write: (bytes: Buffer) => void,
    timeoutMs: number,
  ): Promise<Frame | null> {
    const id = `${REPLAY_ID_PREFIX}${++this.replays}`;
    const raw =
      (text !== null ? withJsonRpcId(text, id) : null) ??
      JSON.stringify(Object.assign({ jsonrpc: "2.0", id }, message, { id }));
    const answered = new Promise<Frame | null>((resolve) => {
      const timer = setTimeout(() => {
        this.tapReplies.delete(id);
        resolve(null);
      }, timeoutMs);
      this.tapReplies.set(id, (frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
    this.trace.emit({ type: "frame", conn: this.conn, dir: "client->agent", raw, origin: "tap" });
    write(Buffer.from(`${raw}\n`));
    return answered;
  }

  /** Keeps the connection's books and applies the hold, the tap's own replies, the inspector's retries and the armed rules. */
  private decide(f: TapFrame): FrameDecision | Promise<FrameDecision> {
    if (f.dir === "client->agent" && this.hold) {
      const hold = this.hold;
      return hold.then(() => this.decide(f));
    }
    const frame = f.frame;
    if (!frame || frame.kind === "malformed") return FORWARD;
    const fromClient = f.dir === "client->agent";
    if (!fromClient) {
      if (frame.kind === "result" || frame.kind === "error") {
        const done = typeof frame.id === "string" ? this.tapReplies.get(frame.id) : undefined;
        if (done) {
          this.tapReplies.delete(frame.id as string);
          return { forward: false, mark: "tap", recorded: () => done(frame) };
        }
        const retried = this.retries.answer(frame, f.text);
        if (retried) return retried;
      } else if (frame.kind === "notification" && this.restoring.size > 0) {
        const sessionId = (frame.params as { sessionId?: unknown } | null)?.sessionId;
        if (typeof sessionId === "string" && this.restoring.has(sessionId))
          return { forward: false, mark: "tap" };
      }
    }
    if (fromClient && frame.kind === "request" && frame.method === "initialize")
      this.lastInitialize = { message: frame.message, text: f.text };
    this.sessions.observe(frame, f.dir);
    const answering =
      !fromClient && (frame.kind === "result" || frame.kind === "error")
        ? this.retries.pendingRequest(frame.id)
        : undefined;
    const seen = this.retries.observe(frame, f.text, fromClient);
    const answered = this.ledger.observe(frame, f.dir);
    const keep: FrameDecision = seen ? { forward: true, recorded: (seq) => (seen.seq = seq) } : FORWARD;
    const localRetry = seen ? this.injector.takeLocalRetry(seen) : undefined;
    if (seen && localRetry) {
      return {
        forward: true,
        recorded: (seq) => {
          seen.seq = seq;
          this.injector.apply(
            localRetry,
            this.conn,
            seq,
            this.retryDetail(
              seen,
              "resent right after it was forwarded; its answer is recorded, not forwarded",
            ),
          );
          // After this read's lines are written on, so the copy reaches the agent after the original.
          setImmediate(() => void this.toAgent(seen, false, `fault rule ${localRetry.id} (retry)`));
        },
      };
    }
    if (!this.injector.armed()) return keep;
    const decision = this.injector.decide(frame, f.dir, answered);
    switch (decision.action) {
      case "forward":
        return keep;
      case "delay":
        return this.holdFrame(decision.rule, decision.delayMs, seen);
      case "lose-and-retry":
      case "restart-and-retry": {
        const { rule } = decision;
        if (!answering) {
          this.trace.emit({
            type: "note",
            level: "warn",
            text: `fault rule ${rule.id} (${rule.action}): the request this answer answers is no longer kept; answer forwarded, nothing resent`,
          });
          return FORWARD;
        }
        const why = `fault rule ${rule.id} (${rule.action})`;
        const restart = FAULT_ACTION_TABLE[rule.action].resend === "after-restart";
        return {
          forward: false,
          recorded: (seq) => {
            this.injector.apply(
              rule,
              this.conn,
              seq,
              this.retryDetail(
                answering,
                restart
                  ? "answer dropped; agent restarted, sessions resumed, request resent, its answer forwarded under the client's id"
                  : "answer dropped; request resent, its answer forwarded under the client's id",
              ),
            );
            if (!restart) return void this.toAgent(answering, true, why);
            this.afterRestart.push({ req: answering, why });
            if (!this.actions?.restartAgent()) {
              this.afterRestart = this.afterRestart.filter((q) => q.req !== answering);
              this.trace.emit({
                type: "note",
                level: "warn",
                text: `${why}: no agent process to restart here; resending without a restart`,
              });
              void this.toAgent(answering, true, why);
            }
          },
        };
      }
      default: {
        const { rule } = decision;
        return { forward: false, recorded: (seq) => this.injector.apply(rule, this.conn, seq) };
      }
    }
  }
}
