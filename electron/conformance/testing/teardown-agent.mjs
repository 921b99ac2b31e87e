// A wrapper around the demo agent for the suite's teardown tests. Usage:
//   node teardown-agent.mjs MODE <cli.js> [demo-agent args...]
// It runs `node <cli.js> demo-agent ...` and passes stdin/stdout through. When its stdin ends:
//   noisy              writes a stack trace to stderr (as a real adapter does when a connection
//                      closes mid-turn), then ends the demo agent's input and exits with it
//   linger             writes the same stack trace and never exits on its own (until a signal)
//   cut-loses-session  like noisy, and a session whose turn was still running is lost: its file is
//                      deleted from the store (`--store DIR`), so a later session/resume gets
//                      -32002, as with an adapter that exits mid-turn before saving the session
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [mode, cli, ...args] = process.argv.slice(2);
const store = args[args.indexOf("--store") + 1];
const child = spawn(process.execPath, [cli, "demo-agent", ...args], { stdio: ["pipe", "pipe", "inherit"] });
const running = new Set();
createInterface({ input: child.stdout }).on("line", (line) => {
  process.stdout.write(`${line}\n`);
  try {
    const msg = JSON.parse(line);
    const update = msg.method === "session/update" ? msg.params?.update : undefined;
    if (update?.sessionUpdate === "state_update") {
      if (update.state === "running") running.add(msg.params.sessionId);
      else running.delete(msg.params.sessionId);
    }
  } catch {
    // not JSON: passed through as it is
  }
});
process.stdin.pipe(child.stdin, { end: false });
process.stdin.on("end", () => {
  process.stderr.write("teardown-agent: Error: the connection closed\n");
  process.stderr.write("    at Connection.onClose (teardown-agent.mjs:1:1)\n");
  if (mode === "cut-loses-session" && store)
    for (const id of running) rmSync(join(store, "sessions", `${id}.jsonl`), { force: true });
  if (mode === "linger") {
    setInterval(() => undefined, 1000);
    return;
  }
  child.stdin.end();
});
child.on("exit", (code) => {
  if (mode !== "linger") process.exit(code ?? 1);
});
process.on("SIGTERM", () => {
  child.kill("SIGTERM");
  process.exit(143);
});
