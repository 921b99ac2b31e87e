/**
 * The setup of a trace, as `diff` compares it: the header (tool, transport, agent command, import
 * format) and the first `initialize` the Client sent with its answer (protocol version, agent info,
 * capabilities). Fed every record in order (`observe`); it parses only the frames that can be the
 * first `initialize` exchange, and frames over `MAX_SETUP_FRAME_CHARS` never.
 */

import { parseJsonObject } from "../protocol/json-object.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "../trace/record.js";
import { boundedJson } from "./bounded-json.js";

/** Frames longer than this are not parsed for the setup (an `initialize` is a few KiB). */
export const MAX_SETUP_FRAME_CHARS = 1 << 20;
/** Each setup value is shown in at most this many characters. */
export const MAX_SETUP_CHARS = 2000;

/** A trace's setup facts, each null when the trace does not show it. */
export interface SetupFacts {
  readonly tool: string | null;
  readonly transport: string | null;
  readonly agentCommand: string | null;
  readonly importedFormat: string | null;
  /** The protocol version the Agent's `initialize` answer agreed. */
  readonly protocolVersion: string | null;
  readonly agentInfo: string | null;
  readonly agentCapabilities: string | null;
  readonly authMethods: string | null;
  readonly clientInfo: string | null;
  readonly clientCapabilities: string | null;
  /** The `initialize` error, when the Agent refused it. */
  readonly initializeError: string | null;
}

const cut = (s: string): string => (s.length > MAX_SETUP_CHARS ? `${s.slice(0, MAX_SETUP_CHARS - 1)}…` : s);
const shown = (v: unknown): string | null => (v === undefined ? null : boundedJson(v, MAX_SETUP_CHARS));

/** Collects a trace's `SetupFacts` from its header and records. */
export class SetupCollector {
  private header: TraceHeader | null = null;
  private request: { conn: number; id: unknown; params: Record<string, unknown> } | null = null;
  private answer: Record<string, unknown> | null = null;

  /** Takes the trace header. */
  observeHeader(header: TraceHeader): void {
    this.header = header;
  }

  /** Takes one record (every record, in order; only the first `initialize` exchange is parsed). */
  observe(record: TraceRecord): void {
    if (this.answer !== null || record.type !== "frame") return;
    if (record.encoding === "base64" || record.raw.length > MAX_SETUP_FRAME_CHARS) return;
    if (this.request === null) this.takeRequest(record);
    else if (record.conn === this.request.conn && record.dir === "agent->client") this.takeAnswer(record);
  }

  private takeRequest(record: FrameRecord): void {
    if (record.dir !== "client->agent" || record.origin !== undefined || !record.raw.includes('"initialize"'))
      return;
    const msg = parseJsonObject(record.raw);
    if (msg?.method !== "initialize" || msg.id === undefined) return;
    const params =
      msg.params !== null && typeof msg.params === "object" ? (msg.params as Record<string, unknown>) : {};
    this.request = { conn: record.conn, id: msg.id, params };
  }

  private takeAnswer(record: FrameRecord): void {
    const msg = parseJsonObject(record.raw);
    if (!msg || msg.method !== undefined || msg.id !== this.request?.id) return;
    this.answer = msg;
  }

  /** The facts seen so far. */
  facts(): SetupFacts {
    const h = this.header;
    const result =
      this.answer?.result !== null && typeof this.answer?.result === "object"
        ? (this.answer.result as Record<string, unknown>)
        : null;
    const params = this.request?.params ?? null;
    return {
      tool: h && typeof h.tool === "string" ? cut(h.tool) : null,
      transport: h && typeof h.transport === "string" ? cut(h.transport) : null,
      agentCommand: h?.agent && Array.isArray(h.agent.command) ? cut(h.agent.command.join(" ")) : null,
      importedFormat: h?.imported ? cut(String(h.imported.format)) : null,
      protocolVersion: result ? shown(result.protocolVersion) : null,
      // v2 names them info/capabilities, v1 agentInfo/agentCapabilities (clientInfo/... for the Client)
      agentInfo: result ? shown(result.info ?? result.agentInfo) : null,
      agentCapabilities: result ? shown(result.capabilities ?? result.agentCapabilities) : null,
      authMethods: result ? shown(result.authMethods) : null,
      clientInfo: params ? shown(params.info ?? params.clientInfo) : null,
      clientCapabilities: params ? shown(params.capabilities ?? params.clientCapabilities) : null,
      initializeError: this.answer?.error !== undefined ? shown(this.answer.error) : null,
    };
  }
}
