// A minimal real ACP agent built with the SDK, for showing that SDK peers work through the tap.
// Usage: node sdk-agent.mjs v1|v2. It answers initialize, session/new and session/prompt, and
// sends one agent_message_chunk update per prompt ("echo: <text>").
import { Readable, Writable } from "node:stream";

const version = process.argv[2] === "v2" ? 2 : 1;
const acp =
  version === 2
    ? await import("@agentclientprotocol/sdk/experimental/v2")
    : await import("@agentclientprotocol/sdk");
const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
let sessions = 0;
let messages = 0;

const app = acp
  .agent()
  .onRequest("initialize", () =>
    version === 2
      ? { protocolVersion: 2, info: { name: "sdk-agent", version: "1.0.0" }, capabilities: { session: {} } }
      : { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "sdk-agent", version: "1.0.0" } },
  )
  .onRequest("session/new", () => ({ sessionId: `s${++sessions}` }))
  .onRequest("session/prompt", async (ctx) => {
    const text = ctx.params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    await ctx.client.notify("session/update", {
      sessionId: ctx.params.sessionId,
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `echo: ${text}` },
        ...(version === 2 ? { messageId: `a${messages + 1}` } : {}),
      },
    });
    return version === 2 ? { messageId: `m${++messages}` } : { stopReason: "end_turn" };
  });

const connection = app.connect(stream);
await connection.closed;
