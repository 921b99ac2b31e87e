import { describe, expect, it } from "vitest";
import { SseLimitError, sseEventData } from "./sse-events.js";

/** A body that arrives in exactly these chunks. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function events(stream: ReadableStream<Uint8Array>, max = 1000): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseEventData(stream, max)) out.push(data);
  return out;
}

describe("sseEventData", () => {
  it("yields each event's data exactly, across chunk boundaries and line endings", async () => {
    expect(
      await events(
        body(
          ': keep-alive\n\ndata: {"a" : 1}\n\nda',
          'ta:{"b":2}\r',
          "\n\r\nevent: x\ndata: one\ndata:  two\r\rdata: é",
          "\n\n",
        ),
      ),
    ).toEqual(['{"a" : 1}', '{"b":2}', "one\n two", "é"]);
  });

  it("keeps a multi-byte character split between chunks, and an event the stream ended inside", async () => {
    const bytes = new TextEncoder().encode("data: ü€\n");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 9));
        controller.enqueue(bytes.subarray(9));
        controller.close();
      },
    });
    expect(await events(stream)).toEqual(["ü€"]);
  });

  it("stops at an event longer than the limit", async () => {
    await expect(events(body(`data: ${"x".repeat(20)}\n\n`), 10)).rejects.toBeInstanceOf(SseLimitError);
    await expect(events(body(`data: ${"x".repeat(20)}`), 10)).rejects.toBeInstanceOf(SseLimitError);
  });
});
