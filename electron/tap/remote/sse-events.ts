/**
 * Reads a `text/event-stream` body as the data of its events, exactly: each event's `data:` lines
 * joined with `\n` (one space after the colon dropped, as the SSE rules say). Comments, other
 * fields and empty events are skipped. Lines may end in CRLF, LF or CR.
 */

/** An event or line longer than the reader takes. */
export class SseLimitError extends Error {}

/** Yields the data of each event in `body`; throws when one event (or line) passes `maxChars`. */
export async function* sseEventData(
  body: ReadableStream<Uint8Array>,
  maxChars: number,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder("utf-8");
  const reader = body.getReader();
  let buffer = "";
  let scanFrom = 0;
  let data: string[] | null = null;
  let size = 0;
  /** Takes one line; returns the finished event's data on a blank line. */
  const take = (line: string): string | undefined => {
    if (line === "") {
      const done = data?.join("\n");
      data = null;
      size = 0;
      return done;
    }
    const colon = line.indexOf(":");
    if (colon === 0 || (colon < 0 ? line : line.slice(0, colon)) !== "data") return undefined;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    size += value.length;
    if (size > maxChars) throw new SseLimitError(`an SSE event longer than ${maxChars} characters`);
    if (data) data.push(value);
    else data = [value];
    return undefined;
  };
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        let end = -1;
        for (let i = scanFrom; i < buffer.length; i++) {
          const c = buffer.charCodeAt(i);
          if (c === 10 || c === 13) {
            end = i;
            break;
          }
        }
        if (end < 0) {
          scanFrom = buffer.length;
          break;
        }
        // A CR as the last character may be the first half of a CRLF split across chunks.
        if (buffer.charCodeAt(end) === 13 && end === buffer.length - 1 && !done) {
          scanFrom = end;
          break;
        }
        const width = buffer.charCodeAt(end) === 13 && buffer.charCodeAt(end + 1) === 10 ? 2 : 1;
        const event = take(buffer.slice(0, end));
        buffer = buffer.slice(end + width);
        scanFrom = 0;
        if (event !== undefined) yield event;
      }
      if (buffer.length > maxChars) throw new SseLimitError(`an SSE line longer than ${maxChars} characters`);
      if (done) break;
    }
    finished = true;
    // The stream ended inside an event: what arrived is still the agent's message.
    if (buffer !== "") take(buffer);
    const rest = take("");
    if (rest !== undefined) yield rest;
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
