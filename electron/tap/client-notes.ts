import { Socket } from "node:net";
import { LineCutter } from "../../shared/protocol/line-cutter.js";
import type { TraceFanout } from "../trace/trace-fanout.js";

/** The longest note kept from one line of the client's remarks. */
const NOTE_MAX_CHARS = 4096;

/**
 * Records each line read from descriptor `fd` (`replay`'s remarks on how it answered the agent) as
 * an info note, bounded to 4 KiB a line; destroy it when the tap's connection ends. Null (and said) when
 * the descriptor cannot be read.
 */
export function readClientNotes(
  fd: number,
  trace: TraceFanout,
  say: (message: string) => void,
): { destroy(): void } | null {
  let stream: Socket;
  try {
    // A socket, not an fs stream: an fs read of a pipe holds a thread, and the process, until it ends.
    stream = new Socket({ fd, readable: true, writable: false });
    stream.setEncoding("utf8");
  } catch (err) {
    say(`--client-notes-fd ${fd}: ${(err as Error).message}`);
    return null;
  }
  const notes = new LineCutter(NOTE_MAX_CHARS);
  stream.on("data", (chunk: string | Buffer) => {
    for (const line of notes.push(String(chunk)))
      if (line !== "") trace.emit({ type: "note", level: "info", text: line.slice(0, NOTE_MAX_CHARS) });
  });
  stream.on("error", () => {});
  return stream;
}
