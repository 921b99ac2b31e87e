// A stand-in ACP agent for the conformance suite's own tests. Usage: node stub-agent.mjs MODE
//   silent         reads stdin and never answers anything (a hung agent)
//   v1             answers initialize with protocolVersion 1 (a v1-only agent), then nothing else
//   stall-prompts  a v2 agent that answers initialize, session/new, session/list and session/resume
//                  but never answers session/prompt (a turn that never inserts)
//   hostile        a v2 agent whose name and error messages carry terminal escape sequences
//                  (clear screen, OSC 52 clipboard write, hidden text, 8-bit CSI, a newline)
//   forget-unprompted MARKER
//                  a v2 agent that keeps sessions in memory only: session/resume of a session this
//                  process did not create is refused with -32002. The first process (no MARKER
//                  file yet) writes MARKER and exits (code 1) right after answering session/new,
//                  before any prompt; later ones answer session/prompt with a messageId
import { existsSync, writeFileSync } from "node:fs";
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
  if (mode === "forget-unprompted") {
    forgetUnprompted(message);
    return;
  }
  if (mode !== "stall-prompts") return;
  if (message.method === "session/new") send({ id: message.id, result: { sessionId: `stub-${++sessions}` } });
  else if (message.method === "session/list") send({ id: message.id, result: { sessions: [] } });
  else if (message.method === "session/resume") send({ id: message.id, result: {} });
});
process.stdin.on("end", () => process.exit(0));

const known = new Set();
function forgetUnprompted(message) {
  const marker = process.argv[3];
  if (message.method === "session/new") {
    const sessionId = `stub-${process.pid}-${++sessions}`;
    known.add(sessionId);
    send({ id: message.id, result: { sessionId } });
    if (marker && !existsSync(marker)) {
      writeFileSync(marker, "died after session/new\n");
      process.exit(1);
    }
  } else if (message.method === "session/resume") {
    const id = message.params?.sessionId;
    if (known.has(id)) send({ id: message.id, result: {} });
    else send({ id: message.id, error: { code: -32002, message: `Session not found: ${id}` } });
  } else if (message.method === "session/prompt") {
    send({ id: message.id, result: { messageId: `m-${message.params?.idempotencyKey ?? message.id}` } });
  } else send({ id: message.id, error: { code: -32601, message: "Method not found" } });
}
