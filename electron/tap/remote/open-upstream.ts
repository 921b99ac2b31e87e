import { isHttpAgentUrl } from "./agent-url.js";
import type { UpstreamChannel, UpstreamEvents } from "./upstream-channel.js";
import { HttpUpstream } from "./upstream-http.js";
import { WsUpstream } from "./upstream-ws.js";

/** Dials `url`: WebSocket for `ws(s)://`, Streamable HTTP for `http(s)://`. */
export function openUpstream(url: string, events: UpstreamEvents): UpstreamChannel {
  return isHttpAgentUrl(url) ? new HttpUpstream(url, events) : new WsUpstream(url, events);
}
