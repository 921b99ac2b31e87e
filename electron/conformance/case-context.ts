/**
 * What a case works with: numbered connections to the agent (through its `AgentDialer`), the
 * case's deadline, fresh keys, and the insert check every retry case ends with.
 */

import { randomUUID } from "node:crypto";
import type { CaseName } from "../../shared/conformance/conformance-result.js";
import type { AgentDialer, CaseConnection } from "./agent-dialer.js";
import type { CaseDeadline } from "./case-deadline.js";
import { CaseFailure, CaseTimeout, check, type FrameRef } from "./case-outcome.js";
import { SuiteClient } from "./suite-client.js";

/** How long one connection attempt may take while the suite waits for a restarted remote agent. */
const RECONNECT_ATTEMPT_MS = 2000;
const RECONNECT_PAUSE_MS = 100;
/** How long a case waits for a turn to end (`state_update` idle) before it closes the connection anyway. */
export const TURN_SETTLE_CAP_MS = 10_000;

/** A requirement the case recorded on its way: confirmed, broken without ending the case, or not applicable. */
export interface RecordedOutcome {
  readonly status: "pass" | "fail" | "skip";
  readonly message: string;
  readonly frames?: readonly FrameRef[];
}

/** The working context of one running case. */
export class CaseContext {
  private conns = 0;
  private readonly opened: CaseConnection[] = [];
  private readonly clients: SuiteClient[] = [];
  /** Requirements confirmed or broken so far, by id (a failure is never overwritten by a pass). */
  readonly outcomes = new Map<string, RecordedOutcome>();
  /** Things the reason should say whatever the result, e.g. a connection closed mid-turn. */
  readonly remarks: string[] = [];

  constructor(
    readonly name: CaseName,
    readonly dialer: AgentDialer,
    readonly deadline: CaseDeadline,
    /** The working directory sessions are created in (absolute). */
    readonly cwd: string,
  ) {}

  /**
   * Opens the next connection and initializes it at v2. Its start (the agent's spawn and its
   * answer to `initialize`) is set-up: bounded on its own, not counted against the case's limit
   * (`CaseDeadline.setup`). With `untilUp` (after a restart of a remote agent) connection failures
   * are retried until the case's deadline, each attempt within `RECONNECT_ATTEMPT_MS`.
   */
  async connect(untilUp = false): Promise<SuiteClient> {
    for (;;) {
      const conn = ++this.conns;
      const opening = this.dialer.open(conn);
      const connection = await (untilUp
        ? opening
        : this.deadline.setup(opening, `connection #${conn} to open`).catch((err: unknown) => {
            // Given up on: closed whenever it does open.
            void opening.then(
              (c) => c.close(),
              () => undefined,
            );
            throw err;
          }));
      this.opened.push(connection);
      const client = new SuiteClient(connection.stream, this.deadline, conn);
      this.clients.push(client);
      try {
        const init = await (untilUp
          ? this.deadline.within(client.initialize(), "the restarted agent", RECONNECT_ATTEMPT_MS)
          : this.deadline.setup(client.initialize(), `the answer to initialize on connection #${conn}`));
        check(
          init.protocolVersion === 2,
          `initialize on connection #${conn} agreed to protocol version ${String(init.protocolVersion)}, not 2`,
        );
        return client;
      } catch (err) {
        const retry = untilUp && err instanceof CaseFailure && this.deadline.remainingMs > RECONNECT_PAUSE_MS;
        if (!retry) throw err;
        await connection.close();
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS));
      }
    }
  }

  /** Records that requirement `id` held in this case (unless it already failed). */
  confirm(id: string, message = "held"): void {
    if (this.outcomes.get(id)?.status !== "fail") this.outcomes.set(id, { status: "pass", message });
  }

  /** Records that requirement `id` could not be tested in this case, and why (`not applicable: ...`). */
  notApplicable(id: string, message: string): void {
    if (this.outcomes.get(id)?.status !== "fail") this.outcomes.set(id, { status: "skip", message });
  }

  /** Records that requirement `id` broke, without ending the case (the case throws at its end). */
  breaks(id: string, message: string, frames?: readonly FrameRef[]): void {
    if (this.outcomes.get(id)?.status !== "fail") this.outcomes.set(id, { status: "fail", message, frames });
  }

  /** Ends the case if a requirement broke on the way: a `CaseFailure` for the first (the runner reports the others too). */
  throwIfBroken(): void {
    const failed = [...this.outcomes.entries()].filter(([, o]) => o.status === "fail");
    const [first] = failed;
    if (!first) return;
    throw new CaseFailure(first[1].message, {
      requirement: first[0],
      frames: first[1].frames,
    });
  }

  /**
   * Waits (at most `TURN_SETTLE_CAP_MS`, and at most half the case's time left) until the turn running on `client` in `sessionId` ended
   * (an idle `state_update` after arrival order `after`), so that closing the connection or
   * killing the agent next does not cut a turn short: an agent may rightly lose a session whose
   * turn was cut, and the case would then fail for a reason that is not the rule it checks. If
   * the turn does not end in time, the case goes on and its reason says so.
   */
  async settleTurn(client: SuiteClient, sessionId: string, after: number): Promise<void> {
    // At most half of what is left: the steps after it (a reconnect, a resume, the retry the case
    // is about) keep the other half, so a slow turn cannot eat the time the rule needs.
    const capMs = Math.max(1, Math.min(TURN_SETTLE_CAP_MS, Math.floor(this.deadline.remainingMs / 2)));
    try {
      await client.until(
        () => client.idleSince(sessionId, after),
        `the end of the turn on connection #${client.conn}`,
        capMs,
      );
    } catch (err) {
      if (!(err instanceof CaseTimeout)) throw err;
      this.remarks.push(
        `connection #${client.conn} was closed while its turn was still running (no idle state_update within ${capMs} ms)`,
      );
    }
  }

  /**
   * After `session/resume` on `client`: when the agent says the session is still running a turn
   * (its `state_update` snapshot: the turn the case cut short, continued by a new agent process), waits
   * for that turn to end (at most the set-up bound, `CaseDeadline.setupLimitMs`) before the case sends its retry, which the
   * agent would rightly hold behind it. That wait is set-up: not counted against the case's limit
   * (`CaseDeadline.setup`). If the turn does not end in time the case goes on, and its reason says so.
   */
  async settleResumedTurn(client: SuiteClient, sessionId: string, after: number): Promise<void> {
    if (client.stateOf(sessionId) !== "running" || client.idleSince(sessionId, after)) return;
    const what = `the end of the turn the agent continued on connection #${client.conn}`;
    const capMs = this.deadline.setupLimitMs;
    try {
      await this.deadline.setup(
        client.until(() => client.idleSince(sessionId, after), what),
        what,
        capMs,
      );
    } catch (err) {
      if (!(err instanceof CaseTimeout)) throw err;
      this.remarks.push(
        `the agent was still running the turn it continued on connection #${client.conn} when the retry was sent (no idle state_update within ${capMs} ms)`,
      );
    }
  }

  /** Crashes and restarts the agent (see `AgentDialer.restart`); returns what was done. */
  restartAgent(): Promise<string> {
    return this.dialer.restart(Math.max(1, this.deadline.remainingMs));
  }

  /** A fresh idempotency key (a UUID with the case name in front, so it is easy to spot in traces). */
  newKey(): string {
    return `conformance-${this.name}-${randomUUID()}`;
  }

  /** A prompt text unique to this case and run. */
  text(label: string): string {
    return `conformance ${this.name}: ${label} (${randomUUID().slice(0, 8)})`;
  }

  /**
   * Checks which user messages `client` saw inserted live in `sessionId`: sends a fresh probe
   * prompt, waits for its user_message (prompts are inserted in order, so any duplicate of an
   * earlier prompt would show up first), then requires exactly `expected` besides the probe.
   */
  async confirmInserts(client: SuiteClient, sessionId: string, expected: readonly string[]): Promise<void> {
    const probe = client.prompt(sessionId, this.text("probe"), this.newKey());
    const probeId = await client.inserted(probe, "the probe prompt");
    await client.waitUserMessage(sessionId, probeId, "the probe prompt");
    const seen = client.userMessages(sessionId).filter((id) => id !== probeId);
    const extra = seen.filter((id) => !expected.includes(id));
    const missing = expected.filter((id) => !seen.includes(id));
    check(
      extra.length === 0,
      `${extra.length} extra user message(s) inserted on connection #${client.conn}: ${extra.join(", ")} (expected only ${expected.join(", ") || "none"})`,
      {
        requirement: "idem.insert.once",
        frames: extra.map((messageId) => ({ conn: client.conn, messageId })),
      },
    );
    check(
      missing.length === 0,
      `no user_message or user_message_chunk update for ${missing.join(", ")} on connection #${client.conn}`,
    );
    this.confirm("idem.insert.once", `no second message inserted on connection #${client.conn}`);
  }

  /** Closes every connection this case opened: the client side first, then the dialer (bounded). */
  async closeAll(): Promise<void> {
    for (const client of this.clients) client.close();
    await Promise.all(this.opened.map((c) => c.close()));
  }
}
