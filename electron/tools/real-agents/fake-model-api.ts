/**
 * A fake model API on loopback for real agents nobody here wrote (claude-agent-acp, codex-acp): it
 * answers every Anthropic Messages request (`POST .../v1/messages`) and every OpenAI Responses
 * request (`POST .../responses`) with one streamed text answer ("ok"), no tool calls, as a
 * server-sent-event stream. Anything else gets a JSON 404. It only listens on 127.0.0.1 (port 0) and
 * counts what it was asked, so a run can say whether the agent reached it.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The text of every answer. */
export const FAKE_ANSWER = "ok";
/** Request bodies read past this are cut (the server never needs them; agents send whole histories). */
const MAX_BODY = 8 * 1024 * 1024;

/** One SSE event: `event: NAME` and its JSON data. */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The Anthropic Messages stream of one text answer, for `model`. */
export function messagesStream(model: string, id: string, text = FAKE_ANSWER): string {
  const usage = { input_tokens: 1, output_tokens: 1 };
  return [
    sseEvent("message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    }),
    sseEvent("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    sseEvent("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text },
    }),
    sseEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
    sseEvent("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage,
    }),
    sseEvent("message_stop", { type: "message_stop" }),
  ].join("");
}

/** The OpenAI Responses stream of one text answer, for `model`. */
export function responsesStream(model: string, id: string, text = FAKE_ANSWER): string {
  const item = {
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  const response = { id, object: "response", model, status: "in_progress", output: [] as unknown[] };
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    sseEvent(type, { type, sequence_number: seq++, ...data });
  return [
    ev("response.created", { response }),
    ev("response.output_item.added", {
      output_index: 0,
      item: { ...item, status: "in_progress", content: [] },
    }),
    ev("response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta: text }),
    ev("response.output_item.done", { output_index: 0, item }),
    ev("response.completed", {
      response: {
        ...response,
        status: "completed",
        output: [item],
        usage: {
          input_tokens: 1,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 1,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 2,
        },
      },
    }),
  ].join("");
}

/** What the fake API was asked, by kind. */
export interface FakeModelCounts {
  messages: number;
  responses: number;
  other: number;
}

/** A started fake model API. */
export interface FakeModelApi {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly counts: FakeModelCounts;
  /** The last few paths it answered 404 (for a run's report). */
  readonly unknownPaths: string[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      if (size < MAX_BODY) chunks.push(c);
      size += c.length;
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(""));
  });
}

function modelOf(body: string): string {
  try {
    const doc = JSON.parse(body) as { model?: unknown };
    return typeof doc.model === "string" ? doc.model.slice(0, 200) : "fake-model";
  } catch {
    return "fake-model";
  }
}

function streams(body: string): boolean {
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

/** Starts the fake API on 127.0.0.1, port 0. */
export function startFakeModelApi(): Promise<FakeModelApi> {
  const counts: FakeModelCounts = { messages: 0, responses: 0, other: 0 };
  const unknownPaths: string[] = [];
  let n = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const body = await readBody(req);
    const id = `fake_${++n}`;
    if (req.method === "POST" && /\/messages$/.test(path)) {
      counts.messages++;
      const model = modelOf(body);
      if (!streams(body)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id,
            type: "message",
            role: "assistant",
            model,
            content: [{ type: "text", text: FAKE_ANSWER }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(messagesStream(model, id));
      return;
    }
    if (req.method === "POST" && /\/responses$/.test(path)) {
      counts.responses++;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(responsesStream(modelOf(body), id));
      return;
    }
    if (req.method === "POST" && /\/messages\/count_tokens$/.test(path)) {
      counts.other++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: 1 }));
      return;
    }
    counts.other++;
    if (unknownPaths.length < 20) unknownPaths.push(`${req.method} ${path.slice(0, 120)}`);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ error: { type: "not_found_error", message: "the fake model API has no such path" } }),
    );
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        counts,
        unknownPaths,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
