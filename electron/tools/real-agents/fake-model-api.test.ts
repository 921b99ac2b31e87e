import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ANSWER, type FakeModelApi, startFakeModelApi } from "./fake-model-api.js";

/** Parses an SSE body into [event, data] pairs. */
function events(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split("\n\n")
    .filter((b) => b.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as Record<string, unknown>;
      return { event, data };
    });
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("fake model API on loopback", () => {
  let api: FakeModelApi;
  beforeAll(async () => {
    api = await startFakeModelApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("listens on 127.0.0.1 only", () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers an Anthropic Messages request with one streamed text answer", async () => {
    const res = await post(`${api.url}/v1/messages`, {
      model: "claude-test",
      stream: true,
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const evs = events(await res.text());
    expect(evs.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const e of evs) expect(e.data.type).toBe(e.event);
    const start = evs[0]?.data.message as { model: string; role: string };
    expect(start).toMatchObject({ model: "claude-test", role: "assistant" });
    expect(evs[2]?.data.delta).toEqual({ type: "text_delta", text: FAKE_ANSWER });
    expect(evs[4]?.data.delta).toMatchObject({ stop_reason: "end_turn" });
    expect(api.counts.messages).toBe(1);
  });

  it("answers an OpenAI Responses request with a stream that completes with the text", async () => {
    const res = await post(`${api.url}/v1/responses`, { model: "fake-model", stream: true, input: [] });
    expect(res.status).toBe(200);
    const evs = events(await res.text());
    expect(evs[0]?.event).toBe("response.created");
    expect(evs.at(-1)?.event).toBe("response.completed");
    expect(evs.map((e) => e.data.sequence_number)).toEqual(evs.map((_, i) => i));
    const delta = evs.find((e) => e.event === "response.output_text.delta");
    expect(delta?.data.delta).toBe(FAKE_ANSWER);
    const done = evs.find((e) => e.event === "response.output_item.done")?.data.item as {
      type: string;
      role: string;
      content: { type: string; text: string }[];
    };
    expect(done).toMatchObject({ type: "message", role: "assistant" });
    expect(done.content[0]).toMatchObject({ type: "output_text", text: FAKE_ANSWER });
    const completed = evs.at(-1)?.data.response as { status: string; usage: { total_tokens: number } };
    expect(completed.status).toBe("completed");
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    expect(api.counts.responses).toBe(1);
  });

  it("answers any other path with a JSON 404 and names it", async () => {
    const res = await fetch(`${api.url}/v1/models`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("not_found_error");
    expect(api.unknownPaths).toContain("GET /v1/models");
  });
});
