import { describe, expect, it } from "vitest";
import type { SpanOp } from "../../shared/otel/span-description.js";
import { exportedStatusMessage, redactSpanOps, STATUS_MESSAGE_CHARS } from "./span-redaction.js";

const TOKEN = "sk-live-ABCDEFGH12345";

describe("span redaction before export (issue 31)", () => {
  it("hides the agent's error text unless prompts are included, and secrets always", () => {
    const msg = `-32603 failed for PROMPT-TEXT with Bearer ${TOKEN}`;
    expect(exportedStatusMessage(msg, false)).toBe(`-32603 [agent error text: ${msg.length - 7} chars]`);
    const full = exportedStatusMessage(msg, true);
    expect(full).toContain("PROMPT-TEXT");
    expect(full).not.toContain(TOKEN);
    expect(exportedStatusMessage(`verdict detail ${"x".repeat(500)}`, false)).toHaveLength(
      STATUS_MESSAGE_CHARS,
    );
  });

  it("hides Bearer tokens and query values in span names, event names and string attributes", () => {
    const ops: SpanOp[] = [
      {
        op: "span",
        parent: null,
        span: {
          name: `GET Bearer ${TOKEN}`,
          kind: "client",
          startTime: 1,
          endTime: 2,
          attributes: {
            "url.full": `https://h/x?api_key=${TOKEN}`,
            n: 3,
            list: [`basic dXNlcjpwYXNzd29yZA==`],
          },
          status: { code: "error", message: `-1 Bearer ${TOKEN}` },
          events: [{ name: `e bearer: "${TOKEN}"`, time: 1, attributes: {} }],
        },
      },
      {
        op: "open",
        ref: 1,
        span: { name: "ok", kind: "internal", startTime: 1, attributes: { a: "plain" } },
      },
    ];
    const out = redactSpanOps(ops, true);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(JSON.stringify(out)).not.toContain("dXNlcjpwYXNzd29yZA");
    expect(out[1]).toEqual(ops[1]);
  });
});
