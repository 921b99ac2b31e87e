import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import type { FaultDecision, FaultRuleSet } from "../../../shared/faults/fault-rule-set.js";
import { RequestLedger } from "../../../shared/faults/request-ledger.js";
import type { Direction } from "../../../shared/trace/record.js";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FrameDecision, FramePolicy, TapFrame } from "../frames/frame-policy.js";

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
  /** Records one application of `rule` on `conn` and carries out a lifecycle rule. */
  apply(rule: FaultRule, conn: number, frameSeq?: number, detail?: string): void;
}

/**
 * The fault state of one client connection: the request ledger (which request a response answers),
 * the client's last `initialize` (replayed after a restart), the hold that queues client frames
 * while the agent restarts, and the `FramePolicy` its pumps consult.
 */
export class ConnectionFaults {
  private readonly ledger = new RequestLedger();
  private lastInitialize: Record<string, unknown> | null = null;
  private hold: Promise<void> | null = null;
  private releaseHold: (() => void) | null = null;
  private readonly tapReplies = new Map<string, () => void>();
  private replays = 0;
  /** Frames held by a `delay`, each with how to settle it. */
  private readonly holds = new Set<(released: boolean, why: string) => void>();

  constructor(
    readonly conn: number,
    private readonly injector: ArmedRules,
    private readonly trace: TraceFanout,
  ) {}

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
   * Replays the client's last `initialize` to a restarted agent with a tap-owned id, recording it
   * (`origin: "tap"`), and resolves when the agent answered (its answer is swallowed and recorded
   * the same way) or after `REPLAY_TIMEOUT_MS`. Resolves at once when the client never initialized.
   */
  async replayInitialize(write: (bytes: Buffer) => void, timeoutMs = REPLAY_TIMEOUT_MS): Promise<void> {
    const init = this.lastInitialize;
    if (!init) return;
    const id = `${REPLAY_ID_PREFIX}${++this.replays}`;
    const text = JSON.stringify({ ...init, id });
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.tapReplies.delete(id);
        resolve(false);
      }, timeoutMs);
      this.tapReplies.set(id, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    this.trace.emit({ type: "frame", conn: this.conn, dir: "client->agent", raw: text, origin: "tap" });
    write(Buffer.from(`${text}\n`));
    if (!(await answered)) {
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
  private holdFrame(rule: FaultRule, delayMs: number): FrameDecision {
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
        this.injector.apply(rule, this.conn, seq, `holding ${delayMs} ms`);
      },
    };
  }

  /** Every frame still held is never delivered (`why`: the connection closed, the tap was stopped); each gets its `fate` record. */
  settleHolds(why: string): void {
    for (const settle of [...this.holds]) settle(false, why);
  }

  /** Keeps the connection's books (ledger, last `initialize`) and applies the hold, the tap's own replies and the armed rules. */
  private decide(f: TapFrame): FrameDecision | Promise<FrameDecision> {
    if (f.dir === "client->agent" && this.hold) {
      const hold = this.hold;
      return hold.then(() => this.decide(f));
    }
    const frame = f.frame;
    if (!frame || frame.kind === "malformed") return FORWARD;
    if (f.dir === "agent->client" && (frame.kind === "result" || frame.kind === "error")) {
      const done = typeof frame.id === "string" ? this.tapReplies.get(frame.id) : undefined;
      if (done) {
        this.tapReplies.delete(frame.id as string);
        return { forward: false, mark: "tap", recorded: done };
      }
    }
    if (f.dir === "client->agent" && frame.kind === "request" && frame.method === "initialize")
      this.lastInitialize = frame.message;
    const answered = this.ledger.observe(frame, f.dir);
    if (!this.injector.armed()) return FORWARD;
    const decision = this.injector.decide(frame, f.dir, answered);
    switch (decision.action) {
      case "forward":
        return FORWARD;
      case "delay":
        return this.holdFrame(decision.rule, decision.delayMs);
      default: {
        const { rule } = decision;
        return { forward: false, recorded: (seq) => this.injector.apply(rule, this.conn, seq) };
      }
    }
  }
}
