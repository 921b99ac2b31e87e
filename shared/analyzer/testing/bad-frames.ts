/** Frames the analyzer must keep as malformed rows: fixtures for tests and generated traces. */
import type { Direction, FrameRecord } from "../../trace/record.js";

/** Lines that are not a valid JSON-RPC 2.0 message, one per reason `classifyFrame` gives. */
export const MALFORMED_LINES: readonly string[] = [
  "garbage line",
  "[1,2,3]",
  '[{"jsonrpc":"2.0","id":1,"method":"initialize"}]',
  "42",
  "null",
  '"just a string"',
  '{"jsonrpc":"1.0","id":1,"method":"initialize"}',
  '{"id":1,"method":"initialize"}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"session/list"}',
  '{"jsonrpc":"2.0","id":1.5e400,"method":"session/list"}',
  '{"jsonrpc":"2.0","id":[1],"result":{}}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"error":null}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","method":"session/update","params":',
  "",
];

/** Frames the tap flagged (not UTF-8, oversize, unterminated, malformed), as record fields. */
export const FLAGGED_FRAMES: readonly {
  readonly dir: Direction;
  readonly raw: string;
  readonly extra: Partial<FrameRecord>;
}[] = [
  { dir: "agent->client", raw: "/w==", extra: { encoding: "base64", flags: ["not-utf8"] } },
  {
    dir: "client->agent",
    raw: `{"jsonrpc":"2.0","id":1,"method":"x","params":"${"a".repeat(300)}`,
    extra: { flags: ["oversize"], bytes: 9_000_000 },
  },
  { dir: "agent->client", raw: '{"jsonrpc":"2.0","id":3', extra: { flags: ["unterminated"] } },
  {
    dir: "client->agent",
    raw: '{"jsonrpc":"2.0","method":"x"}',
    extra: { flags: ["malformed"], dropped: true },
  },
];
