/**
 * `replay --as agent`: this process is the recorded agent, on stdio. Each client request is
 * matched to a recorded one (shared/replay/agent-matcher.ts); the agent frames recorded after it
 * are written as recorded, then its answer under the client's id, unless the recording shows that
 * answer lost: then it is lost again, and when the recorded agent ended there, this process ends
 * the same way (after saving its position, so a respawn continues the recording). Every decision
 * is a line on stderr (a tap records it as the agent's stderr).
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { classifyFrame } from "../../shared/protocol/frame.js";
import { AgentMatcher } from "../../shared/replay/agent-matcher.js";
import type { AgentScript, RecordedExit } from "../../shared/replay/agent-script.js";
import { loadStartPosition, saveState } from "./agent-state-file.js";

/** The JSON-RPC error code of a request the recording cannot answer. */
export const UNANSWERABLE_CODE = -32603;

/** What the replay agent runs on. */
export interface ReplayAgentOptions {
  readonly script: AgentScript;
  readonly sha256: string;
  readonly statePath: string;
  readonly input: Readable;
  readonly output: Writable;
  /** `recorded`: lost answers are lost again, recorded exits re-enacted; `none`: every recorded answer is sent. */
  readonly faults: "recorded" | "none";
  /** One line of what the replay did (to stderr). */
  readonly log: (line: string) => void;
}

/** Plays the recorded agent until the client hangs up (`null`) or a recorded exit is reached. */
export function runReplayAgent(o: ReplayAgentOptions): Promise<RecordedExit | null> {
  const start = loadStartPosition(o.statePath, o.sha256, Date.now());
  o.log(start.why);
  const matcher = new AgentMatcher(o.script, start.position ?? undefined);
  const save = (respawn: boolean) => {
    try {
      saveState(o.statePath, {
        version: 1,
        sha256: o.sha256,
        position: matcher.position(),
        respawn,
        savedAt: Date.now(),
      });
    } catch (err) {
      o.log(`cannot write the state file ${o.statePath}: ${(err as Error).message}`);
    }
  };
  save(false);
  const write = (text: string) => o.output.write(`${text}\n`);
  return new Promise((resolve) => {
    const lines = createInterface({ input: o.input, crlfDelay: Number.POSITIVE_INFINITY });
    let done = false;
    const finish = (exit: RecordedExit | null) => {
      if (done) return;
      done = true;
      lines.close();
      // Everything written is flushed before the process ends the recorded way.
      if (o.output.destroyed || o.output.writableEnded) resolve(exit);
      else o.output.write("", () => resolve(exit));
    };
    lines.on("line", (line) => {
      if (done || line.trim() === "") return;
      const f = classifyFrame(line);
      if (f.kind === "malformed") {
        write(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: f.reason } }));
        o.log(`a client line that is not a JSON-RPC message: answered -32600 (${f.reason})`);
        return;
      }
      if (f.kind !== "request") return;
      const idText = JSON.stringify(f.id);
      const m = matcher.match(f.method, f.params);
      if ("unanswerable" in m) {
        const message = `replay --as agent: cannot answer ${f.method}: ${m.unanswerable}`;
        write(
          JSON.stringify({
            jsonrpc: "2.0",
            id: f.id,
            error: { code: UNANSWERABLE_CODE, message, data: { replay: "unanswerable", method: f.method } },
          }),
        );
        o.log(`${f.method} (id ${idText}): ${m.unanswerable}; answered ${UNANSWERABLE_CODE}`);
        save(false);
        return;
      }
      const x = m.exchange;
      if (f.method === "initialize") noteVersion(f.params, x.answer, o.log);
      const from = `recorded #${x.seq}${x.origin ? ` (sent by the ${x.origin})` : ""}`;
      for (const raw of x.before) write(raw);
      if (x.answer !== undefined && (x.lost === null || o.faults === "none")) {
        write(JSON.stringify({ jsonrpc: "2.0", id: f.id, ...x.answer }));
        o.log(
          `${f.method} (id ${idText}) answered as ${from}${x.lost === null ? "" : " (lost in the recording; --faults none)"}`,
        );
      } else {
        const why =
          x.lost === null || x.lost.kind === "no-answer"
            ? "the recording has no answer to it"
            : x.lost.kind === "dropped"
              ? `its answer was dropped by ${x.lost.by}`
              : `the request was dropped by ${x.lost.by}`;
        o.log(`${f.method} (id ${idText}) is ${from}: not answered, lost again (${why})`);
      }
      for (const raw of x.after) write(raw);
      if (x.exit !== undefined && o.faults === "recorded") {
        save(true);
        o.log(
          `the recorded agent ended here (${x.exit.signal ?? `exit status ${x.exit.code}`}${x.exit.by ? `, by ${x.exit.by}` : ""}): ending the same way`,
        );
        finish(x.exit);
        return;
      }
      save(false);
    });
    lines.on("close", () => finish(null));
    // A client that went away while this process was writing: the end, not a crash.
    o.output.on("error", () => finish(null));
  });
}

/** Says so when the client asks another protocol version than the recorded answer gives (it is sent as recorded). */
function noteVersion(params: unknown, answer: unknown, log: (line: string) => void): void {
  const asked = (params as { protocolVersion?: unknown } | null)?.protocolVersion;
  const given = (answer as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
  if (given !== undefined && asked !== given)
    log(
      `the client asked protocolVersion ${JSON.stringify(asked)}; the recorded answer (sent as recorded) says ${JSON.stringify(given)}`,
    );
}
