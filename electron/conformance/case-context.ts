/**
 * What a case works with: numbered connections to the agent (through its `AgentDialer`), the
 * case's deadline, fresh keys, and the insert check every retry case ends with.
 */

import { randomUUID } from "node:crypto";
import type { CaseName } from "../../shared/conformance/conformance-result.js";
import type { AgentDialer, CaseConnection } from "./agent-dialer.js";
import type { CaseDeadline } from "./case-deadline.js";
import { CaseFailure, check } from "./case-outcome.js";
import { SuiteClient } from "./suite-client.js";

/** How long one connection attempt may take while the suite waits for a restarted remote agent. */
const RECONNECT_ATTEMPT_MS = 2000;
const RECONNECT_PAUSE_MS = 100;

/** The working context of one running case. */
export class CaseContext {
  private conns = 0;
  private readonly opened: CaseConnection[] = [];
  private readonly clients: SuiteClient[] = [];

  constructor(
    readonly name: CaseName,
    readonly dialer: AgentDialer,
    readonly deadline: CaseDeadline,
    /** The working directory sessions are created in (absolute). */
    readonly cwd: string,
  ) {}

  /**
   * Opens the next connection and initializes it at v2. With `untilUp` (after a restart of a
   * remote agent) connection failures are retried until the case's deadline.
   */
  async connect(untilUp = false): Promise<SuiteClient> {
    for (;;) {
      const conn = ++this.conns;
      const connection = await this.dialer.open(conn);
      this.opened.push(connection);
      const client = new SuiteClient(connection.stream, this.deadline, conn);
      this.clients.push(client);
      try {
        const init = await (untilUp
          ? this.deadline.within(client.initialize(), "the restarted agent", RECONNECT_ATTEMPT_MS)
          : client.initialize());
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
    );
    check(
      missing.length === 0,
      `no user_message update for ${missing.join(", ")} on connection #${client.conn}`,
    );
  }

  /** Closes every connection this case opened: the client side first, then the dialer (bounded). */
  async closeAll(): Promise<void> {
    for (const client of this.clients) client.close();
    await Promise.all(this.opened.map((c) => c.close()));
  }
}
