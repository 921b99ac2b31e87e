/**
 * The stress mode's client: the reference client's machinery (`ClientSubmissionTracker`, and the
 * demo client's `startSession` and `deliver`) with the keys the schedule names, so the tap's fault
 * rules can match each prompt by its key. It submits every prompt at once (every prompt after the
 * first is held behind a running turn), resends on a timeout with the same key, reconnects after a
 * dropped connection or a killed agent (`initialize`, `session/resume`, resend every pending
 * submission), and sends the schedule's `$/cancel_request`s (a `-32800` answer ends that submission,
 * withdrawn, as the tracker has it). It stops at `deadline`.
 */

import {
  ClientSubmissionTracker,
  type TrackedSubmission,
} from "../../../shared/keys/client-submission-tracker.js";
import { type AgentTarget, openConnection } from "../../peers/client/agent-transport.js";
import { deliver, startSession } from "../../peers/client/demo-client.js";
import { JsonRpcPeer, RpcError } from "../../peers/rpc/json-rpc-peer.js";

/** What the stress client is asked to do. */
export interface StressClientOptions {
  readonly target: AgentTarget;
  /** The prompts, in order, each with its key. */
  readonly prompts: readonly { readonly text: string; readonly key: string }[];
  /** `$/cancel_request` for prompt `prompt` (1-based), `ms` after the prompts were sent on the first connection. */
  readonly cancels: readonly { readonly prompt: number; readonly ms: number }[];
  readonly cwd: string;
  readonly attemptTimeoutMs: number;
  readonly maxAttempts: number;
  /** Epoch ms: the client gives up then. */
  readonly deadline: number;
}

/** How the client ended. */
export interface StressClientResult {
  readonly connections: number;
  readonly submissions: readonly TrackedSubmission[];
  /** False when it stopped at the deadline with submissions still pending. */
  readonly finished: boolean;
}

const MAX_CONNECTIONS = 20;
const RECONNECT_DELAY_MS = 30;

/** Runs the client to the end (every submission answered or given up) or to the deadline. */
export async function runStressClient(options: StressClientOptions): Promise<StressClientResult> {
  const tracker = new ClientSubmissionTracker({ keyed: true });
  for (const p of options.prompts) await tracker.submit([{ type: "text", text: p.text }], p.key);
  const all = tracker.all();
  const pendingCancels = [...options.cancels];
  let connections = 0;
  let timedOut = false;
  const deadlineTimer = new Promise<"deadline">((resolve) => {
    const ms = Math.max(0, options.deadline - Date.now());
    setTimeout(() => {
      timedOut = true;
      resolve("deadline");
    }, ms).unref();
  });
  const log = () => undefined;
  while (tracker.pending().length > 0 && connections < MAX_CONNECTIONS && !timedOut) {
    if (connections > 0) await new Promise((r) => setTimeout(r, RECONNECT_DELAY_MS));
    connections++;
    const conn = connections;
    let open: Awaited<ReturnType<typeof openConnection>>;
    try {
      open = await openConnection(options.target, {}, conn);
    } catch {
      continue;
    }
    const peer = new JsonRpcPeer(open.stream, {
      onNotification: () => undefined,
      onRequest: (request) => {
        throw new RpcError(-32601, `Method not found: ${request.method}`);
      },
    });
    const timers: NodeJS.Timeout[] = [];
    try {
      const work = (async () => {
        // Setting up (initialize, session/new or resume) waits as long as the run may: a slow start
        // is not a lost answer, and giving up on it would only start yet another agent.
        // A resume refused (-32002) for a session in which no prompt was answered gets a new session:
        // the RFD lets an agent forget a session never prompted, and that is not the failure a stress
        // run looks for (an insert the lost session did hold still shows as a second insert of its key).
        await startSession(
          peer,
          tracker,
          options.cwd,
          Math.max(1, options.deadline - Date.now()),
          conn,
          log,
          undefined,
          { newSessionIfRefused: "unanswered" },
        );
        const delivering = tracker
          .pending()
          .map((s) => deliver(s, peer, tracker, conn, options.attemptTimeoutMs, options.maxAttempts, log));
        // Cancels go out on the first connection that gets this far, once each.
        for (const c of pendingCancels.splice(0)) {
          timers.push(
            setTimeout(() => {
              const submission = all[c.prompt - 1];
              const attempt = submission?.attempts
                .filter((a) => a.conn === conn && a.outcome === undefined)
                .at(-1);
              if (attempt && !peer.ended) peer.notify("$/cancel_request", { requestId: attempt.requestId });
            }, c.ms),
          );
        }
        return Promise.all(delivering);
      })();
      work.catch(() => undefined);
      const result = await Promise.race([work, deadlineTimer]);
      if (result === "deadline") break;
    } catch {
      // The connection failed before the session was set up: reconnect.
    } finally {
      for (const t of timers) clearTimeout(t);
      peer.close();
      await open.close();
    }
  }
  return { connections, submissions: tracker.all(), finished: tracker.pending().length === 0 };
}
