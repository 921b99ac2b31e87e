// A stand-in agent for kill-nine.test.ts (spawn it with process.execPath):
//   kill-nine-agent.mjs <log> <count>
// Writes `pid <pid>` to <log>, then streams <count> small session/update notifications to stdout,
// one write each, as fast as the pipe takes them. Every whole line that reaches its stdin is
// appended to <log> as `got <line>` (synchronously, so the log holds exactly what the agent
// received). When stdin ends (the tap died) it writes `end` and exits; a broken stdout only stops
// the stream.
import { closeSync, openSync, writeSync } from "node:fs";

const [logPath, countArg = "1000000"] = process.argv.slice(2);
const count = Number(countArg);
const log = openSync(logPath, "a");
writeSync(log, `pid ${process.pid}\n`);

let carry = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  const parts = (carry + text).split("\n");
  carry = parts.pop() ?? "";
  if (parts.length > 0) writeSync(log, parts.map((p) => `got ${p}\n`).join(""));
});
process.stdin.on("end", () => {
  writeSync(log, "end\n");
  closeSync(log);
  process.exit(0);
});
// Never outlive a test that lost track of us.
setTimeout(() => process.exit(3), 30_000);

let broken = false;
process.stdout.on("error", () => {
  broken = true;
});
let n = 0;
function stream() {
  while (n < count && !broken) {
    const ok = process.stdout.write(
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","n":${n++}}}\n`,
    );
    if (!ok) {
      process.stdout.once("drain", stream);
      return;
    }
    // Let stdin be read between bursts.
    if (n % 64 === 0) {
      setImmediate(stream);
      return;
    }
  }
}
stream();
