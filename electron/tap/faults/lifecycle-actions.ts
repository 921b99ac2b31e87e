/** The lifecycle faults, as the owner of a connection carries them out. */
export interface LifecycleActions {
  /** Close the client's connection (the stdio tap ends). */
  disconnectClient(): void;
  /** SIGKILL the agent serving this connection. */
  killAgent(): void;
  /** SIGKILL the agent, respawn it and replay the client's `initialize` and sessions; false when there is no agent process to restart. */
  restartAgent(): boolean;
  /** Write one whole line (with its newline) to the agent, as the tap's own (the inspector's retries). */
  sendToAgent?(line: Buffer): void;
}
