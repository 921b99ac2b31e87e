// A tiny stand-in agent for tap tests, driven by argv (spawn it with process.execPath):
//   echo                 copy stdin to stdout byte for byte, exit 0 when stdin ends
//   rechunk <seed>       like echo, but re-cut into pseudo-random pieces (1 B to 256 KiB) with pauses
//   stderr <text...>     write each argument as a stderr line, then behave like echo
//   exit <code>          echo, then exit with <code> when stdin ends
//   await-signal [code]  write {"ready":true} to stdout, then on SIGTERM/SIGINT exit with <code>,
//                        or die of the signal when no code is given
//   flood <bytes> <size> write <bytes> of identical JSON-RPC notifications of <size> bytes each, then exit 0
//   notify <count>       write <count> session/update notifications of about 300 bytes, one write each
//   rpc                  answer every request line with {"jsonrpc":"2.0","id":<id>,"result":{}}
const [mode = "echo", ...args] = process.argv.slice(2);

function echo(code = 0) {
  process.stdin.pipe(process.stdout);
  process.stdin.on("end", () => {
    process.stdout.end(() => process.exit(code));
  });
}

/** Echo that writes the same bytes back in pseudo-random pieces, yielding between bursts. */
function rechunk(seed) {
  let state = seed >>> 0 || 1;
  const rand = (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const queue = [];
  let ended = false;
  let running = false;
  const take = () => {
    const size = [1 + rand(16), 1 + rand(4096), 1 + rand(262144)][rand(3)];
    const head = queue[0];
    const piece = head.subarray(0, size);
    if (piece.length === head.length) queue.shift();
    else queue[0] = head.subarray(piece.length);
    return piece;
  };
  const run = async () => {
    running = true;
    while (queue.length > 0) {
      const burst = 1 + rand(8);
      for (let i = 0; i < burst && queue.length > 0; i++) {
        if (!process.stdout.write(take())) await new Promise((r) => process.stdout.once("drain", r));
      }
      await new Promise((r) => setImmediate(r));
    }
    running = false;
    if (ended) process.stdout.end(() => process.exit(0));
  };
  process.stdin.on("data", (c) => {
    queue.push(c);
    if (!running) run();
  });
  process.stdin.on("end", () => {
    ended = true;
    if (!running) process.stdout.end(() => process.exit(0));
  });
}

if (mode === "echo") echo();
else if (mode === "rechunk") rechunk(Number(args[0]));
else if (mode === "stderr") {
  for (const a of args) process.stderr.write(`${a}\n`);
  echo();
} else if (mode === "exit") echo(Number(args[0]));
else if (mode === "await-signal") {
  const code = args[0];
  for (const s of ["SIGTERM", "SIGINT"]) {
    process.on(s, () => {
      process.stdout.write(`{"signal":"${s}"}\n`, () => {
        if (code !== undefined) process.exit(Number(code));
        process.removeAllListeners(s);
        process.kill(process.pid, s);
      });
    });
  }
  process.stdout.write('{"ready":true}\n');
  setInterval(() => {}, 60_000);
} else if (mode === "flood") {
  const total = Number(args[0]);
  const size = Number(args[1] ?? 300);
  const head = '{"jsonrpc":"2.0","method":"session/update","params":{"text":"';
  const tail = '"}}\n';
  const line = Buffer.from(`${head}${"x".repeat(Math.max(0, size - head.length - tail.length))}${tail}`);
  const block = Buffer.concat(
    Array.from({ length: Math.max(1, Math.floor(65536 / line.length)) }, () => line),
  );
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += block.length;
      if (!process.stdout.write(block)) return process.stdout.once("drain", pump);
    }
    process.stdout.end(() => process.exit(0));
  };
  pump();
} else if (mode === "notify") {
  const count = Number(args[0]);
  let i = 0;
  const pump = () => {
    while (i < count) {
      i++;
      const text = `chunk ${i} `.padEnd(140, "lorem ipsum dolor sit amet ");
      const line = `${JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "sess-1",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
        },
      })}\n`;
      if (!process.stdout.write(line)) return process.stdout.once("drain", pump);
    }
    process.stdout.end(() => process.exit(0));
  };
  pump();
} else if (mode === "rpc") {
  let carry = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (text) => {
    const lines = (carry + text).split("\n");
    carry = lines.pop();
    for (const l of lines) {
      if (l) process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(JSON.parse(l).id)},"result":{}}\n`);
    }
  });
  process.stdin.on("end", () => process.exit(0));
} else {
  process.stderr.write(`scripted-agent: unknown mode ${mode}\n`);
  process.exit(2);
}
