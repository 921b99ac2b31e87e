/** The v2 methods of the demo agent (everything but `session/prompt`, which has its own file). */

import { ErrorCode } from "../../../shared/keys/peer-choices.js";
import { type IncomingRequest, RpcError } from "../rpc/json-rpc-peer.js";
import type { ConnectionScope } from "./connection-scope.js";
import { paramsObject, requireString, sessionNotFound } from "./params.js";
import { handleCancelRequest, handlePrompt } from "./v2-prompt.js";
import { replayUpdates } from "./v2-replay.js";

/** Dispatches one v2 request; `admitted` lets the connection's next message in (prompts call it once queued). */
export async function handleV2Request(
  scope: ConnectionScope,
  request: IncomingRequest,
  admitted: () => void,
): Promise<unknown> {
  const { agent } = scope;
  switch (request.method) {
    case "session/prompt":
      return handlePrompt(scope, request, admitted);
    case "session/new": {
      const cwd = requireString(paramsObject(request.params), "cwd");
      const session = agent.newSession(cwd);
      scope.attach(session);
      return { sessionId: session.id };
    }
    case "session/list": {
      const cwd = paramsObject(request.params ?? {}).cwd;
      const sessions = await agent.list(typeof cwd === "string" ? cwd : undefined);
      return { sessions };
    }
    case "session/resume":
      return resume(scope, request.params);
    case "session/fork": {
      const params = paramsObject(request.params);
      const source = await agent.session(requireString(params, "sessionId"));
      if (!source) throw sessionNotFound(params.sessionId);
      const fork = await agent.fork(source, requireString(params, "cwd"));
      scope.attach(fork);
      return { sessionId: fork.id };
    }
    case "session/close": {
      const sessionId = requireString(paramsObject(request.params), "sessionId");
      const session = await agent.session(sessionId);
      if (!session) throw sessionNotFound(sessionId);
      await session.cancel();
      scope.detach(session);
      return {};
    }
    case "session/delete": {
      const sessionId = requireString(paramsObject(request.params), "sessionId");
      const session = await agent.session(sessionId);
      if (session) scope.detach(session);
      await agent.delete(sessionId);
      return {};
    }
    default:
      throw new RpcError(ErrorCode.methodNotFound, `Method not found: ${request.method}`);
  }
}

/** `session/resume`: optional replay from the start, then a `state_update` snapshot, then the (empty) response. */
async function resume(scope: ConnectionScope, raw: unknown): Promise<unknown> {
  const params = paramsObject(raw);
  const sessionId = requireString(params, "sessionId");
  requireString(params, "cwd");
  const replayFrom = params.replayFrom;
  if (replayFrom !== undefined && replayFrom !== null) {
    const type = (replayFrom as { type?: unknown }).type;
    if (type !== "start")
      throw new RpcError(ErrorCode.invalidParams, `Invalid params: unsupported replayFrom`);
  }
  const session = await scope.agent.session(sessionId);
  if (!session) throw sessionNotFound(sessionId);
  // `--mode per-connection`: the keys lived on the connection that sent them.
  if (scope.agent.policy.forgetsOnResume) scope.agent.policy.ledger?.forgetSession(sessionId);
  // From the read to `attach` nothing awaits, so no live update falls between replay and live.
  if (replayFrom) {
    const stored = scope.agent.store.read(sessionId);
    for (const update of replayUpdates(stored?.records ?? [], scope.agent.options.userMessages))
      scope.sendUpdate(sessionId, update);
  }
  scope.sendUpdate(sessionId, session.snapshot());
  scope.attach(session);
  return {};
}

/** Dispatches one v2 notification. */
export async function handleV2Notification(
  scope: ConnectionScope,
  method: string,
  params: unknown,
): Promise<void> {
  if (method === "$/cancel_request") return handleCancelRequest(scope, params);
  if (method === "session/cancel") {
    const session = await scope.agent.session(paramsObject(params).sessionId);
    await session?.cancel();
  }
}
