/** The v1 methods of the demo agent: new, load, prompt (answered at the end of the turn), cancel. No keys in v1. */

import { ErrorCode } from "../../../shared/keys/peer-choices.js";
import { type IncomingRequest, RpcError } from "../rpc/json-rpc-peer.js";
import type { ConnectionScope } from "./connection-scope.js";
import { randomMessageId } from "./hosted-session.js";
import { paramsObject, requireString, sessionNotFound } from "./params.js";
import { v1ReplayUpdates } from "./v1-updates.js";

/** Dispatches one v1 request. */
export async function handleV1Request(
  scope: ConnectionScope,
  request: IncomingRequest,
  admitted: () => void,
): Promise<unknown> {
  switch (request.method) {
    case "session/new": {
      const session = scope.agent.newSession(requireString(paramsObject(request.params), "cwd"));
      scope.attach(session);
      return { sessionId: session.id };
    }
    case "session/load": {
      // v1 `loadSession`: the stored conversation is streamed back as updates, then the answer (null).
      const params = paramsObject(request.params);
      const sessionId = requireString(params, "sessionId");
      requireString(params, "cwd");
      const session = await scope.agent.session(sessionId);
      if (!session) throw sessionNotFound(sessionId);
      // From the read to `attach` nothing awaits, so no live update falls between replay and live.
      const stored = scope.agent.store.read(sessionId);
      for (const update of v1ReplayUpdates(stored?.records ?? [])) scope.sendShaped(sessionId, update);
      scope.attach(session);
      return null;
    }
    case "session/prompt": {
      const params = paramsObject(request.params);
      const sessionId = requireString(params, "sessionId");
      if (!Array.isArray(params.prompt))
        throw new RpcError(ErrorCode.invalidParams, "Invalid params: prompt");
      const session = await scope.agent.session(sessionId);
      if (!session) throw sessionNotFound(sessionId);
      scope.attach(session);
      // v1 has no keys: the turn span has an insert child (the whole turn), no dedup lookup.
      const turn = scope.agent.telemetry.turn(sessionId, params);
      const insert = turn.child("insert");
      const stopReason = new Promise<string>((resolve, reject) => {
        session.submit({
          messageId: randomMessageId(),
          content: params.prompt as unknown[],
          settle: (outcome) => {
            if (outcome.kind !== "withdrawn") return;
            if (outcome.code === ErrorCode.requestCancelled) resolve("cancelled");
            else reject(new RpcError(outcome.code, outcome.message));
          },
          onTurnEnd: resolve,
        });
      });
      admitted();
      const ids = { "jsonrpc.request.id": String(request.id) };
      try {
        const reason = await stopReason;
        insert.end({ "acp.stop_reason": reason });
        turn.end(ids);
        return { stopReason: reason };
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        insert.end({}, why);
        turn.end(ids, why);
        throw err;
      }
    }
    default:
      throw new RpcError(ErrorCode.methodNotFound, `Method not found: ${request.method}`);
  }
}
