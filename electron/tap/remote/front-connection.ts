import { PassThrough, type Writable } from "node:stream";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import type { FaultInjector } from "../faults/fault-injector.js";
import { AgentRelay } from "../stdio/agent-relay.js";
import type { ClientChannel, ClientCloseWhy } from "./client-channel.js";
import { LineOutbox } from "./line-outbox.js";
import type { UpstreamTarget } from "./upstream-channel.js";
import { UpstreamRelay } from "./upstream-relay.js";

/** Where a remote front's agent is: a command spawned once per client connection, or a remote agent's URL. */
export type FrontAgent =
  | {
      readonly kind: "command";
      readonly command: readonly string[];
      readonly cwd?: string;
      /** The environment of the agent serving connection `conn` (default: the tap's own). */
      readonly env?: (conn: number) => NodeJS.ProcessEnv;
    }
  | ({ readonly kind: "url" } & UpstreamTarget);

/** What every connection of a front shares. */
export interface FrontDeps {
  readonly agent: FrontAgent;
  readonly trace: TraceFanout;
  readonly faults?: FaultInjector;
  /** Where spawned agents' stderr goes. */
  readonly errOut: Writable;
}

/** A client connection being served: feed it the client's messages; `done` resolves when it ended. */
export interface ServedConnection {
  /** One message from the client (its exact bytes). */
  input(message: Buffer): void;
  /** The client went away (socket closed, `DELETE`). */
  clientGone(): void;
  readonly done: Promise<void>;
}

const NL = Buffer.from("\n");

/**
 * Serves one client connection as connection number `conn`: its own agent process (spawned for
 * it, one line per message on the agent's stdio) or its own upstream connection to `--agent-url`.
 * Every message is recorded, then forwarded, exactly; fault rules apply per connection.
 */
export function serveConnection(channel: ClientChannel, conn: number, deps: FrontDeps): ServedConnection {
  const clientIn = new PassThrough();
  const clientOut = new LineOutbox((line) => channel.send(line));
  clientOut.on("error", () => {});
  const common = {
    conn,
    transport: channel.transport,
    peer: channel.peer,
    clientIn,
    clientOut,
    trace: deps.trace,
    faults: deps.faults,
    closeClient: (why?: ClientCloseWhy) => channel.close(why),
  };
  const done =
    deps.agent.kind === "command"
      ? new AgentRelay({
          ...common,
          command: deps.agent.command,
          cwd: deps.agent.cwd,
          env: deps.agent.env?.(conn),
          errOut: deps.errOut,
          clientEndReason: "client closed the connection",
          tagAgentRecords: true,
        })
          .run()
          .then(() => undefined)
      : new UpstreamRelay({ ...common, target: deps.agent, errOut: deps.errOut }).run();
  return {
    input(message) {
      if (!clientIn.writableEnded) clientIn.write(Buffer.concat([message, NL]));
    },
    clientGone() {
      if (!clientIn.writableEnded) clientIn.end();
    },
    done: done.finally(() => channel.close()),
  };
}
