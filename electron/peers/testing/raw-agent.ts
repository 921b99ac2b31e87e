/**
 * Test support: a demo agent in a real child process, driven with raw JSON-RPC so tests control
 * every id and see every byte the agent writes. Every wait is bounded.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stream } from "@agentclientprotocol/sdk/experimental/v2";
import { cliPath } from "../../tools/testing/cli.js";
import { JsonRpcPeer, type SentRequest } from "../rpc/json-rpc-peer.js";
import { nodeNdJsonStream } from "../rpc/ndjson-stream.js";

/** A fresh temp folder for a store. */
export function tempStore(): string {
  return mkdtempSync(join(tmpdir(), "acp-peers-store-"));
}

/** Resolves with `promise`, or rejects after `ms` with a message naming `what`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A session/update as received. */
export interface Update {
  readonly sessionId: string;
  readonly update: Record<string, unknown>;
}

/** A raw JSON-RPC client connection with an update log and bounded waits. */
export class RawConnection {
  readonly peer: JsonRpcPeer;
  readonly updates: Update[] = [];
  private watchers: Array<() => void> = [];

  constructor(stream: Stream) {
    this.peer = new JsonRpcPeer(stream, {
      onNotification: (method, params) => {
        if (method === "session/update") this.updates.push(params as Update);
        for (const w of this.watchers) w();
      },
    });
  }

  /** Sends a request. */
  send(method: string, params: unknown): SentRequest {
    return this.peer.request(method, params);
  }

  /** Sends a request and awaits its result (bounded). */
  call(method: string, params: unknown, ms = 10_000): Promise<unknown> {
    return within(this.send(method, params).result, ms, method);
  }

  /** `initialize` at v2, then `session/new`; returns the session id. */
  async openSession(cwd = "/tmp"): Promise<string> {
    await this.call("initialize", { protocolVersion: 2, info: { name: "test", version: "1" } });
    return ((await this.call("session/new", { cwd })) as { sessionId: string }).sessionId;
  }

  /** Sends a text prompt with an optional raw key value (pass `undefined` to omit it). */
  prompt(sessionId: string, text: string, key?: unknown, withKey = key !== undefined): SentRequest {
    return this.send("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text }],
      ...(withKey ? { idempotencyKey: key } : {}),
    });
  }

  /** Waits until `predicate` holds over the update log. */
  until(predicate: (updates: readonly Update[]) => boolean, what: string, ms = 10_000): Promise<void> {
    if (predicate(this.updates)) return Promise.resolve();
    return within(
      new Promise<void>((resolve) => {
        const check = () => {
          if (predicate(this.updates)) {
            this.watchers = this.watchers.filter((w) => w !== check);
            resolve();
          }
        };
        this.watchers.push(check);
      }),
      ms,
      what,
    );
  }

  /** Waits for the `n`-th idle `state_update` of a session (1-based). */
  idleCount(sessionId: string, n: number, ms = 10_000): Promise<void> {
    return this.until(
      (us) => us.filter((u) => u.sessionId === sessionId && u.update.state === "idle").length >= n,
      `${n} idle state updates`,
      ms,
    );
  }
}

/** A demo agent process on stdio. */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly connection: RawConnection;
  /** Every line the agent wrote to stdout, verbatim. */
  readonly stdoutLines: string[] = [];
  readonly exited: Promise<void>;

  constructor(
    readonly store: string,
    args: readonly string[] = [],
  ) {
    this.child = spawn(
      process.execPath,
      [cliPath(), "demo-agent", "--store", store, "--turn-ms", "200", ...args],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    this.exited = new Promise((resolve) => this.child.once("exit", () => resolve()));
    this.child.stderr?.resume();
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.stdoutLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    });
    this.connection = new RawConnection(nodeNdJsonStream(this.child.stdin!, this.child.stdout!));
  }

  /** `kill -9` and wait for the exit. */
  async kill9(): Promise<void> {
    this.child.kill("SIGKILL");
    await within(this.exited, 5_000, "agent exit");
  }

  /** Closes stdin and waits for a clean exit. */
  async stop(): Promise<void> {
    this.child.stdin?.end();
    await within(this.exited, 5_000, "agent exit").catch(() => this.kill9());
  }
}

/** Starts a remote demo agent (`--listen ws://127.0.0.1:0`) and resolves with its URLs once it listens. */
export async function startRemoteAgent(
  store: string,
  args: readonly string[] = [],
): Promise<{ child: ChildProcess; wsUrl: string; httpUrl: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [cliPath(), "demo-agent", "--store", store, "--listen", "ws://127.0.0.1:0", "--turn-ms", "200", ...args],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let err = "";
  const urls = await within(
    new Promise<{ wsUrl: string; httpUrl: string }>((resolve, reject) => {
      child.stderr?.on("data", (chunk: Buffer) => {
        err += chunk.toString("utf8");
        const m = /listening (ws:\/\/\S+) (http:\/\/\S+)/.exec(err);
        if (m) resolve({ wsUrl: m[1]!, httpUrl: m[2]! });
      });
      child.once("exit", () => reject(new Error(`agent exited: ${err}`)));
    }),
    10_000,
    "the agent to listen",
  );
  return {
    child,
    ...urls,
    async stop() {
      child.kill("SIGTERM");
      await within(exited, 5_000, "agent exit").catch(() => child.kill("SIGKILL"));
    },
  };
}
