/** What the demo client saw of a session through `session/update`: its state, messages and side effects. */

/** A summary of the updates a client observed, across all its connections. */
export interface ObservedUpdates {
  /** How many `session/update` notifications arrived. */
  updates: number;
  /** messageIds of `user_message` updates, in arrival order (replays included). */
  userMessages: string[];
  /** Titles of the deploys (`tool_call_update`) seen live, in order; a replayed deploy is not counted again. */
  deploys: string[];
  /** Agent text seen live, per agent messageId. */
  agentText: Record<string, string>;
}

/** Tracks the live state of one session and wakes waiters when it goes idle. */
export class SessionObserver {
  readonly observed: ObservedUpdates = { updates: 0, userMessages: [], deploys: [], agentText: {} };
  private state: string | undefined;
  private idleWaiters: Array<() => void> = [];
  private readonly deployIds = new Set<string>();

  constructor(private readonly onUpdate?: (update: Record<string, unknown>) => void) {}

  /** The last state a `state_update` announced. */
  get currentState(): string | undefined {
    return this.state;
  }

  /** Feeds one `session/update` params object. */
  handle(params: unknown): void {
    const update = (params as { update?: Record<string, unknown> } | undefined)?.update;
    if (!update) return;
    this.observed.updates++;
    this.onUpdate?.(update);
    switch (update.sessionUpdate) {
      case "user_message":
        if (typeof update.messageId === "string") this.observed.userMessages.push(update.messageId);
        break;
      case "user_message_chunk":
        // The chunks of one message carry its messageId; count the message once.
        if (typeof update.messageId === "string" && this.observed.userMessages.at(-1) !== update.messageId)
          this.observed.userMessages.push(update.messageId);
        break;
      case "tool_call_update": {
        const id = String(update.toolCallId);
        if (!this.deployIds.has(id)) {
          this.deployIds.add(id);
          this.observed.deploys.push(String(update.title ?? id));
        }
        break;
      }
      case "agent_message_chunk": {
        const id = String(update.messageId);
        const text = (update.content as { text?: unknown } | undefined)?.text;
        if (typeof text === "string")
          this.observed.agentText[id] = (this.observed.agentText[id] ?? "") + text;
        break;
      }
      case "state_update":
        this.state = String(update.state);
        if (this.state === "idle") {
          for (const wake of this.idleWaiters) wake();
          this.idleWaiters = [];
        }
        break;
    }
  }

  /** Resolves at the next `state_update` idle. */
  nextIdle(): Promise<void> {
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
