import { isHttpAgentUrl } from "./agent-url.js";
import type { UpstreamChannel, UpstreamEvents, UpstreamTarget } from "./upstream-channel.js";
import { HttpUpstream } from "./upstream-http.js";
import { WsUpstream } from "./upstream-ws.js";

/** Dials `target.url` (with its token, if any): WebSocket for `ws(s)://`, Streamable HTTP for `http(s)://`. */
export function openUpstream(target: UpstreamTarget, events: UpstreamEvents): UpstreamChannel {
  return isHttpAgentUrl(target.url) ? new HttpUpstream(target, events) : new WsUpstream(target, events);
}
