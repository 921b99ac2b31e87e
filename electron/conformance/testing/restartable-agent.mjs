// Test support: the demo agent listening on a fixed loopback port, with a control endpoint that
// kills it with SIGKILL and starts it again on the same port (what a `--restart-cmd` does for a
// real remote agent).
//   node restartable-agent.mjs CLI_JS [demo-agent options...]
//       prints one JSON line {"ws","http","restartCommand"} on stdout once the agent listens;
//       exits (killing the agent) when its stdin ends or on SIGTERM.
//   node restartable-agent.mjs --restart CONTROL_URL
//       asks a running supervisor to restart its agent; exit 0 once the new agent listens.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

if (process.argv[2] === "--restart") {
  const response = await fetch(process.argv[3]).catch(() => undefined);
  process.exit(response?.ok ? 0 : 1);
}

const [cli, ...agentArgs] = process.argv.slice(2);
let child;
let port = 0;

function startAgent() {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [cli, "demo-agent", "--listen", `ws://127.0.0.1:${port}`, ...agentArgs], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let text = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      text += chunk;
      const found = /listening (ws:\/\/\S+) (http:\/\/\S+)/.exec(text);
      if (found) {
        port = Number(new URL(found[1]).port);
        resolve({ ws: found[1], http: found[2] });
      }
    });
    child.once("exit", () => reject(new Error(`agent exited before listening: ${text}`)));
  });
}

function killAgent() {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  return exited;
}

const urls = await startAgent();
const control = createServer(async (_req, res) => {
  await killAgent();
  try {
    await startAgent();
    res.end("restarted");
  } catch (err) {
    res.statusCode = 500;
    res.end(String(err));
  }
});
await new Promise((resolve) => control.listen(0, "127.0.0.1", resolve));
const controlUrl = `http://127.0.0.1:${control.address().port}/restart`;
const restartCommand = `"${process.execPath}" "${new URL(import.meta.url).pathname}" --restart ${controlUrl}`;
process.stdout.write(`${JSON.stringify({ ...urls, restartCommand })}\n`);

const stop = async () => {
  await killAgent();
  process.exit(0);
};
process.stdin.resume();
process.stdin.on("end", stop);
process.on("SIGTERM", stop);
