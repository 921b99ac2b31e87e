// A stand-in agent for receiver tests (spawn it with process.execPath): on start it writes the
// OTEL_* variables it got as one JSON line on stderr, then sends the tap's OTLP receiver the
// requests named in argv and writes each answer's status and body as a JSON line on stderr
// (`{"poke":NAME,"status":N,"body":...}`), then copies stdin to stdout byte for byte until stdin ends.
//   env        only the variables line
//   bad        a garbage protobuf body, a JSON body that is not OTLP, JSON that is not JSON,
//              a wrong token, no token, a wrong Host, a GET, a wrong content type, a good JSON
//              request (one span), then one more good request per remaining argument
//   claude-code  the header as Claude Code sends it, its OTEL_EXPORTER_OTLP_HEADERS value not
//              percent-decoded (`Bearer%20TOKEN`): a good JSON traces request, a logs request, the
//              same with a wrong token, and with a broken percent escape
//   outside    one good JSON request: a span "early work" with a child "warm cache", started a
//              minute ago, with no trace context (so it matches no prompt attempt); then exits
//              without touching stdout (a wrapper script runs the real agent after it on the same
//              stdio, and ending a socketpair stdout would end it for the agent too)
import { request } from "node:http";

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("OTEL_")));
process.stderr.write(`${JSON.stringify({ env })}\n`);

const endpoint = new URL(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? "http://127.0.0.1:9/v1/traces");
const auth = decodeURIComponent(
  (process.env.OTEL_EXPORTER_OTLP_HEADERS ?? "").replace(/^authorization=/, ""),
);

function post(name, { body, type = "application/json", authorization = auth, host, method = "POST", path }) {
  return new Promise((resolve) => {
    const headers = { "content-type": type };
    if (authorization !== null) headers.authorization = authorization;
    if (host) headers.host = host;
    const req = request(
      { host: endpoint.hostname, port: endpoint.port, path: path ?? endpoint.pathname, method, headers },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => {
          process.stderr.write(`${JSON.stringify({ poke: name, status: res.statusCode, body: text })}\n`);
          resolve();
        });
      },
    );
    req.on("error", (err) => {
      process.stderr.write(`${JSON.stringify({ poke: name, error: err.message })}\n`);
      resolve();
    });
    req.end(body);
  });
}

const nanos = (ms) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;
const goodJson = JSON.stringify({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "poking-agent" } }] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: "5b8efff798038103d269b633813fc60c",
              spanId: "eee19b7ec3c1b174",
              name: "<b>not markup</b>\u001b[31m",
              kind: 1,
              startTimeUnixNano: nanos(Date.now() - 5),
              endTimeUnixNano: nanos(Date.now()),
              attributes: [
                { key: "n", value: { intValue: "42" } },
                {
                  key: "list",
                  value: { arrayValue: { values: [{ stringValue: "a" }, { boolValue: true }] } },
                },
              ],
              status: { code: 2, message: "it broke" },
            },
          ],
        },
      ],
    },
  ],
});

const [mode = "env"] = process.argv.slice(2);
if (mode === "bad") {
  await post("garbage protobuf", {
    body: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2]),
    type: "application/x-protobuf",
  });
  await post("not OTLP JSON", {
    body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 7 }] }] }] }),
  });
  await post("not JSON", { body: "{resourceSpans:" });
  await post("wrong token", { body: goodJson, authorization: "Bearer 0000" });
  await post("no token", { body: goodJson, authorization: null });
  await post("wrong host", { body: goodJson, host: "evil.example:80" });
  await post("GET", { method: "GET" });
  await post("text/plain", { body: goodJson, type: "text/plain" });
  await post("good JSON", { body: goodJson });
  await post("metrics", { body: "{}", path: "/v1/metrics" });
}
if (mode === "claude-code") {
  const raw = (process.env.OTEL_EXPORTER_OTLP_HEADERS ?? "").replace(/^authorization=/, "");
  const wrong = raw.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
  await post("encoded traces", { body: goodJson, authorization: raw });
  await post("encoded logs", { body: "{}", path: "/v1/logs", authorization: raw });
  await post("encoded wrong token", { body: goodJson, authorization: wrong });
  await post("broken escape", { body: goodJson, authorization: `${raw}%E0%A4%A` });
}
if (mode === "outside") {
  const start = Date.now() - 60_000;
  const traceId = "7a1c0000000000000000000000000001";
  const one = (spanId, name, from, to, parentSpanId) => ({
    traceId,
    spanId,
    ...(parentSpanId && { parentSpanId }),
    name,
    kind: 1,
    startTimeUnixNano: nanos(from),
    endTimeUnixNano: nanos(to),
    attributes: [{ key: "cache.entries", value: { intValue: "12" } }],
  });
  await post("outside", {
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "poking-agent" } }] },
          scopeSpans: [
            {
              spans: [
                one("a000000000000001", "early work", start, start + 40),
                one("a000000000000002", "warm cache", start + 5, start + 30, "a000000000000001"),
              ],
            },
          ],
        },
      ],
    }),
  });
  process.exit(0);
}
process.stdin.pipe(process.stdout);
process.stdin.on("end", () => process.stdout.end(() => process.exit(0)));
