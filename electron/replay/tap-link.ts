/**
 * The replay's connection to the tap it starts: over the tap's stdio (an agent command the tap
 * spawns), or, for `--url`, over a WebSocket to a tap front (`proxy --listen ws://127.0.0.1:0
 * --agent-url URL`) that forwards to the remote agent. Either way the replay writes lines and reads
 * lines, and the tap writes the trace.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { WebSocket } from "ws";
import { FRONT_TOKEN_ENV } from "../platform/front-token.js";

/** Where the agent is: a command the tap spawns, or a remote agent's URL (and the file with its token). */
export type ReplayAgent =
  | { readonly kind: "command"; readonly command: readonly string[] }
  | { readonly kind: "url"; readonly url: string; readonly tokenFile?: string };

/** An open link to the tap: lines out and in, and how it ends. */
export interface TapLink {
  /** Sends one frame (no newline). */
  write(line: string): void;
  /** True while the link is held back (the caller waits for `drained`). */
  readonly needsDrain: boolean;
  /** Resolves when the link may take more, or is gone. */
  drained(): Promise<void>;
  /** Ends the client side and waits for the tap to exit. */
  end(): Promise<{ code: number | null; signal: string | null }>;
  /** The replay's remark for the trace (a note), when the tap takes them on this link. */
  note(text: string): void;
}

/** What starting a link needs. */
export interface LinkStart {
  readonly cli: readonly string[];
  /** The `proxy` options before `--` (trace, replay-of, faults, hub). */
  readonly proxyArgs: readonly string[];
  readonly agent: ReplayAgent;
  readonly errOut: Writable;
  /** Each line the tap sends to the client. */
  readonly onLine: (line: string) => void;
  /** The link is gone (the tap exited, or closed the client's connection). */
  readonly onGone: (why: string) => void;
}

/** How long a remote front may take to say where it listens. */
const READY_TIMEOUT_MS = 30_000;

/** Starts the tap and opens the link; rejects (with the reason) when it cannot be opened. */
export async function openTapLink(s: LinkStart): Promise<TapLink> {
  return s.agent.kind === "command" ? stdioLink(s, s.agent.command) : await wsLink(s, s.agent);
}

/** Splits `stream` into lines for `onLine`. */
function readLines(stream: Readable | null, onLine: (line: string) => void): void {
  stream?.setEncoding("utf8");
  let rest = "";
  stream?.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
}

function stdioLink(s: LinkStart, command: readonly string[]): TapLink {
  const args = [...s.cli.slice(1), "proxy", ...s.proxyArgs, "--client-notes-fd", "3", "--", ...command];
  const child = spawn(s.cli[0] as string, args, { stdio: ["pipe", "pipe", "pipe", "pipe"] });
  child.stderr?.pipe(s.errOut, { end: false });
  const notes = child.stdio[3] as Writable;
  notes.on("error", () => {});
  child.stdin?.on("error", () => {});
  const exited = exitOf(child);
  // 'exit', not 'close': the notes pipe (ours) stays open until the replay ends it.
  child.on("exit", () => s.onGone("the tap exited (the agent ended or could not be started)"));
  readLines(child.stdout, s.onLine);
  return {
    write: (line) => void child.stdin?.write(`${line}\n`),
    get needsDrain() {
      return child.stdin?.writableNeedDrain === true;
    },
    drained: () =>
      new Promise<void>((resolve) => {
        child.stdin?.once("drain", resolve);
        child.once("exit", () => resolve());
      }),
    note: (text) => {
      if (!notes.destroyed) notes.write(`${text}\n`);
    },
    async end() {
      notes.end();
      child.stdin?.end();
      return exited;
    },
  };
}

async function wsLink(s: LinkStart, agent: { url: string; tokenFile?: string }): Promise<TapLink> {
  // The front's token: ours, given by the environment (neither printed nor written), for this link only.
  const token = randomBytes(24).toString("base64url");
  const args = [
    ...s.cli.slice(1),
    "proxy",
    ...s.proxyArgs,
    "--listen",
    "ws://127.0.0.1:0",
    "--agent-url",
    agent.url,
    ...(agent.tokenFile !== undefined ? ["--agent-token-file", agent.tokenFile] : []),
    "--ready-fd",
    "3",
  ];
  const child = spawn(s.cli[0] as string, args, {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
    env: { ...process.env, [FRONT_TOKEN_ENV]: token },
  });
  child.stderr?.pipe(s.errOut, { end: false });
  const exited = exitOf(child);
  const ready = await readyLine(child).catch((err: Error) => {
    child.kill("SIGTERM");
    throw err;
  });
  let ws: unknown;
  try {
    ws = (JSON.parse(ready) as { address?: { ws?: unknown } | null }).address?.ws;
  } catch {
    ws = undefined;
  }
  if (typeof ws !== "string") {
    child.kill("SIGTERM");
    throw new Error("the tap's ready line names no WebSocket address");
  }
  const socket = new WebSocket(ws, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", (err) => {
      child.kill("SIGTERM");
      reject(new Error(`cannot connect to the tap at ${ws}: ${err.message}`));
    });
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on("close", (code, reason) => {
      s.onGone(`the tap closed the connection (${code}${reason.length > 0 ? ` ${reason.toString()}` : ""})`);
      resolve();
    }),
  );
  child.on("exit", () => s.onGone("the tap exited"));
  socket.on("message", (data) => {
    for (const line of data.toString().split("\n")) if (line !== "") s.onLine(line);
  });
  return {
    write: (line) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(line);
    },
    get needsDrain() {
      return socket.bufferedAmount > 1 << 20;
    },
    drained: async () => {
      while (socket.readyState === WebSocket.OPEN && socket.bufferedAmount > 1 << 18)
        await new Promise((r) => setTimeout(r, 5));
    },
    // A front does not read the client's notes: they are on stderr only (docs/replay.md).
    note: () => {},
    async end() {
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, "replay done");
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
      socket.terminate();
      // The front serves until stopped: the replay was its only client.
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The first line the tap writes on descriptor 3 (`--ready-fd 3`). */
function readyLine(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    const t = setTimeout(
      () => reject(new Error("the tap did not say where it listens in time")),
      READY_TIMEOUT_MS,
    );
    const stream = child.stdio[3] as Readable;
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n") || text.length > 65_536) {
        clearTimeout(t);
        resolve(text.split("\n")[0] ?? "");
      }
    });
    stream.on("error", () => {});
    child.once("exit", (code, signal) => {
      clearTimeout(t);
      reject(new Error(`the tap exited before listening (${signal ?? `exit status ${code}`})`));
    });
  });
}
