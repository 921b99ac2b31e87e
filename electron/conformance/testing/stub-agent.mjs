// A stand-in ACP agent for the conformance suite's own tests. Usage: node stub-agent.mjs MODE
//   silent         reads stdin and never answers anything (a hung agent)
//   v1             answers initialize with protocolVersion 1 (a v1-only agent), then nothing else
//   stall-prompts  a v2 agent that answers initialize, session/new, session/list and session/resume
//                  but never answers session/prompt (a turn that never inserts)
//   hostile        a v2 agent whose name and error messages carry terminal escape sequences
//                  (clear screen, OSC 52 clipboard write, hidden text, 8-bit CSI, a newline)
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "silent";
let sessions = 0;
const HOSTILE = "\u001b[2J\u001b]52;c;SGVsbG8=\u0007\u001b[8m\u009b2J\n  forged line";
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (mode === "silent" || message.id === undefined) return;
  if (message.method === "initialize") {
    if (mode === "v1") {
      send({
        id: message.id,
        result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "stub-v1", version: "1" } },
      });
    } else {
      send({
        id: message.id,
        result: {
          protocolVersion: 2,
          capabilities: { session: {} },
          info: { name: mode === "hostile" ? `stub ${HOSTILE}` : "stub-stall", version: "1" },
        },
      });
    }
    return;
  }
  if (mode === "hostile") {
    send({ id: message.id, error: { code: -32603, message: `no ${HOSTILE}` } });
    return;
  }
  if (mode !== "stall-prompts") return;
  if (message.method === "session/new") send({ id: message.id, result: { sessionId: `stub-${++sessions}` } });
  else if (message.method === "session/list") send({ id: message.id, result: { sessions: [] } });
  else if (message.method === "session/resume") send({ id: message.id, result: {} });
});
process.stdin.on("end", () => process.exit(0));
