/**
 * The attribute names the OpenTelemetry export writes. The `rpc.*`, `jsonrpc.*`, `error.type` and
 * `gen_ai.*` names are OTel semantic conventions 1.45 (electron/otel checks them against
 * `@opentelemetry/semantic-conventions`); `acp.*` are this tool's own. docs/otel.md lists them all.
 */

/** Semantic-convention attribute names (semconv 1.45). */
export const SEMCONV = {
  rpcSystemName: "rpc.system.name",
  rpcMethod: "rpc.method",
  rpcResponseStatusCode: "rpc.response.status_code",
  jsonrpcRequestId: "jsonrpc.request.id",
  jsonrpcProtocolVersion: "jsonrpc.protocol.version",
  errorType: "error.type",
  genAiOperationName: "gen_ai.operation.name",
  genAiConversationId: "gen_ai.conversation.id",
  genAiAgentName: "gen_ai.agent.name",
} as const;

/** Semantic-convention values: `rpc.system.name=jsonrpc`, `gen_ai.operation.name=invoke_agent`. */
export const SEMCONV_VALUES = { jsonrpc: "jsonrpc", invokeAgent: "invoke_agent" } as const;

/** This tool's own attribute names. */
export const ACP = {
  sessionId: "acp.session.id",
  keyStatus: "acp.idempotency_key.status",
  keyHash: "acp.idempotency_key.sha1",
  retryClass: "acp.retry_class",
  verdict: "acp.verdict",
  verdicts: "acp.verdicts",
  verdictSeverity: "acp.verdict.severity",
  inserts: "acp.inserts",
  attempts: "acp.attempts",
  messageId: "acp.message_id",
  settled: "acp.settled",
  promptPreview: "acp.prompt.preview",
  connection: "acp.connection",
  direction: "acp.direction",
  origin: "acp.origin",
  attemptIndex: "acp.attempt.index",
  outcome: "acp.outcome",
  outcomeDetail: "acp.outcome.detail",
  errorCode: "acp.error.code",
  stopReason: "acp.stop_reason",
  cancelled: "acp.cancel_requested",
  unmatched: "acp.unmatched_response",
  createdSessionId: "acp.created_session.id",
  pid: "acp.agent.pid",
  exitCode: "acp.agent.exit_code",
  exitSignal: "acp.agent.signal",
  faultAction: "acp.fault.action",
  faultRuleId: "acp.fault.rule_id",
  faultFrameSeq: "acp.fault.frame_seq",
  faultDetail: "acp.fault.detail",
  seq: "acp.trace.seq",
  tapName: "acp.tap.name",
} as const;

/** Span and event names. */
export const SPAN_NAMES = {
  /** A submission's root span: GenAI's `invoke_agent`, as its span-name convention asks. */
  submission: "invoke_agent",
  unmatchedResponse: "unmatched response",
  agentExit: "acp.agent.exit",
  fault: "acp.fault",
} as const;
