/**
 * v2 `session/prompt` with every rule of the Idempotency Keys RFD: the key is read from the raw
 * params (the SDK's typed handler would strip it), checked by the ledger, and the request is
 * answered with the messageId when its message is inserted, now or once it stops being held.
 */

import { type KeyOutcome, promptFingerprint } from "../../../shared/keys/agent-key-ledger.js";
import { ErrorCode } from "../../../shared/keys/peer-choices.js";
import { type IncomingRequest, RpcError } from "../rpc/json-rpc-peer.js";
import type { ConnectionScope } from "./connection-scope.js";
import type { HeldPrompt } from "./held-prompt.js";
import { randomMessageId } from "./hosted-session.js";
import { paramsObject, requireString, sessionNotFound } from "./params.js";
import type { TurnSpan } from "./turn-telemetry.js";

function answer(outcome: KeyOutcome): { messageId: string } {
  if (outcome.kind === "withdrawn") throw new RpcError(outcome.code, outcome.message);
  return { messageId: outcome.messageId };
}

/**
 * Handles one v2 `session/prompt` request; resolves to `{messageId}` once the message is inserted.
 * Calls `admitted` as soon as the prompt is queued (or waiting), so the next message may proceed.
 */
export async function handlePrompt(
  scope: ConnectionScope,
  request: IncomingRequest,
  admitted: () => void,
): Promise<unknown> {
  const params = paramsObject(request.params);
  const sessionId = requireString(params, "sessionId");
  const turn = scope.agent.telemetry.turn(sessionId, params);
  try {
    const result = await promptTurn(scope, request, admitted, params, sessionId, turn);
    turn.end({ "jsonrpc.request.id": String(request.id) });
    return result;
  } catch (err) {
    turn.end({ "jsonrpc.request.id": String(request.id) }, err instanceof Error ? err.message : String(err));
    throw err;
  }
}

async function promptTurn(
  scope: ConnectionScope,
  request: IncomingRequest,
  admitted: () => void,
  params: Record<string, unknown>,
  sessionId: string,
  turn: TurnSpan,
): Promise<unknown> {
  const content = params.prompt;
  if (!Array.isArray(content) || content.length === 0) {
    throw new RpcError(ErrorCode.invalidParams, "Invalid params: prompt must be a non-empty array");
  }
  const session = await scope.agent.session(sessionId);
  if (!session) throw sessionNotFound(sessionId);
  scope.attach(session);

  const ledger = scope.agent.policy.ledger;
  let messageId = randomMessageId();
  let key: string | undefined;
  if (ledger) {
    const lookup = turn.child("dedup lookup");
    const admission = await ledger.admit(sessionId, params.idempotencyKey, promptFingerprint(content));
    lookup.end({ "acp.dedup.result": admission.kind });
    switch (admission.kind) {
      case "invalid":
        throw new RpcError(ErrorCode.invalidParams, `Invalid params: ${admission.reason}`);
      case "mismatch":
        throw new RpcError(
          ErrorCode.invalidParams,
          "Invalid params: idempotencyKey was already used with a different prompt",
        );
      case "retry":
        return { messageId: admission.messageId };
      case "wait": {
        // A retry of a held prompt: answered when the original is (RFD: no "in progress" error).
        const pending = { session, key: admission.key };
        const waiting = scope.trackPrompt(request.id, pending, admission.outcome);
        admitted();
        return answer(await waiting);
      }
      case "new":
        messageId = admission.messageId;
        key = admission.key;
        break;
      case "unkeyed":
        break;
    }
  }
  let held: HeldPrompt | undefined;
  const inserted = new Promise<KeyOutcome>((settle) => {
    held = { messageId, key, content, settle };
  });
  const prompt = held as HeldPrompt;
  const tracked = scope.trackPrompt(request.id, { session, key, held: prompt }, inserted);
  const insert = turn.child("insert");
  session.submit(prompt);
  admitted();
  const outcome = await tracked.catch((err: unknown) => {
    insert.end({}, err instanceof Error ? err.message : String(err));
    throw err;
  });
  insert.end(
    { "acp.insert.outcome": outcome.kind },
    outcome.kind === "withdrawn" ? outcome.message : undefined,
  );
  return answer(outcome);
}

/** Handles `$/cancel_request`: withdraws the held prompt of a pending prompt request (and so every request for its key). */
export async function handleCancelRequest(scope: ConnectionScope, params: unknown): Promise<void> {
  const requestId = paramsObject(params).requestId;
  const pending = scope.pendingPrompt(requestId);
  if (!pending) return;
  if (pending.key !== undefined) await pending.session.withdrawKey(pending.key);
  else if (pending.held) await pending.session.withdrawPrompt(pending.held);
}
