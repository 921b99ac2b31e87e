/** The remote agent URLs `proxy --listen --agent-url` forwards to (no imports: the CLI checks them before loading the front). */

/** True for `ws://`, `wss://` (WebSocket), `http://` and `https://` (Streamable HTTP). */
export function isAgentUrl(url: string): boolean {
  return /^(wss?|https?):\/\//i.test(url);
}

/** True when the agent is reached over Streamable HTTP (`http://`, `https://`). */
export function isHttpAgentUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
