/**
 * The seam between the cases and the agent under test: how a case opens a connection, crashes
 * and restarts the agent, and where the case's trace ends up. Both go through the real tap:
 * `stdio-dialer.ts` through `proxy -- <agent>` per connection, `url-dialer.ts` through one remote
 * front (`proxy --listen --agent-url`) per case.
 */

import type { Stream } from "@agentclientprotocol/sdk/experimental/v2";

/** One open connection to the agent. */
export interface CaseConnection {
  readonly stream: Stream;
  /** Ends the connection (bounded; a stdio agent that lingers is terminated). */
  close(): Promise<void>;
}

/** How one case reaches the agent. */
export interface AgentDialer {
  /** `stdio`, `ws` or `http`. */
  readonly transport: string;
  /** Opens connection number `conn` (1, 2, ...). */
  open(conn: number): Promise<CaseConnection>;
  /**
   * Kills the agent (SIGKILL on stdio; the `--restart-cmd` for a URL) so the next `open` reaches a
   * restarted one; returns what it did, for the reason. Throws `CaseSkip` when it cannot.
   */
  restart(timeoutMs: number): Promise<string>;
  /** Closes every connection and writes the case's trace; resolves to its path (undefined if none). */
  finish(): Promise<string | undefined>;
}
