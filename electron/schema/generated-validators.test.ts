/**
 * The validators generated at build time (ajv standalone code, build-schema-validators.mjs) against
 * ajv compiling the SDK's schema.json at run time, the way the check worked before: same verdict and
 * same errors (path, keyword, params) on hand-made v1 and v2 values, the RFD's key limit counted in
 * code points. A wrong generation (a format lost, a ref resolved to the wrong node, the RFD field
 * missing) shows as a different verdict here.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { acpSchema, type SchemaVersion } from "./acp-schemas.js";

/** The SDK's schema of `version` read from its package, v2 with the RFD's key as the docs describe it. */
function sdkSchema(version: SchemaVersion): Record<string, unknown> {
  let dir = dirname(createRequire(import.meta.url).resolve("@agentclientprotocol/sdk"));
  while (!existsSync(join(dir, "schema", "v1", "schema.json"))) dir = dirname(dir);
  const schema = JSON.parse(readFileSync(join(dir, "schema", `v${version}`, "schema.json"), "utf8"));
  if (version === 2)
    schema.$defs.PromptRequest.properties.idempotencyKey = {
      type: ["string", "null"],
      minLength: 1,
      maxLength: 255,
    };
  return schema;
}

const runtimes = new Map<SchemaVersion, Ajv2020>();

/** ajv compiling at run time (as before the generation), with the check's options and formats. */
function runtimeValidator(version: SchemaVersion, pointer: string) {
  const known = runtimes.get(version);
  if (known) return known.compile({ $ref: `acp#${pointer}` });
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  const ranges: Record<string, [number, number]> = {
    int32: [-(2 ** 31), 2 ** 31 - 1],
    uint16: [0, 2 ** 16 - 1],
    uint32: [0, 2 ** 32 - 1],
    int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    uint64: [0, Number.MAX_SAFE_INTEGER],
  };
  for (const [name, [min, max]] of Object.entries(ranges))
    ajv.addFormat(name, {
      type: "number",
      validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
    });
  ajv.addFormat("double", { type: "number", validate: () => true });
  for (const name of ["uri", "date-time", "regex"]) ajv.addFormat(name, true);
  ajv.addSchema(sdkSchema(version), "acp");
  runtimes.set(version, ajv);
  return ajv.compile({ $ref: `acp#${pointer}` });
}

/** Hand-made values: [version, $defs type, value]. */
const CASES: [SchemaVersion, string, unknown][] = [
  [1, "InitializeRequest", { protocolVersion: 1, clientCapabilities: {} }],
  [1, "InitializeRequest", { protocolVersion: -1 }],
  [1, "PromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }] }],
  [1, "PromptRequest", { sessionId: "s", prompt: [{ type: "bogus" }] }],
  [1, "PromptResponse", { stopReason: "end_turn" }],
  [1, "PromptResponse", { stopReason: "sleepy" }],
  [1, "ReadTextFileRequest", { sessionId: "s", path: "/a", line: 4294967296 }],
  [1, "SessionNotification", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } }],
  [2, "InitializeRequest", { protocolVersion: 2, capabilities: {}, info: { name: "c", version: "1" } }],
  [2, "PromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "k" }],
  [
    2,
    "PromptRequest",
    { sessionId: "s", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "😀".repeat(255) },
  ],
  [
    2,
    "PromptRequest",
    { sessionId: "s", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "😀".repeat(256) },
  ],
  [2, "PromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }], idempotencyKey: "" }],
  [2, "PromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }], idempotencyKey: null }],
  [2, "PromptResponse", { stopReason: "end_turn" }],
  [2, "PromptResponse", { messageId: "m", stopReason: "end_turn" }],
  [2, "Error", { code: 1.5, message: 7 }],
];

describe("generated schema validators", () => {
  it.each(CASES)(
    "v%i %s: the same verdict and errors as ajv compiling the SDK's schema",
    (version, type, value) => {
      const pointer = `/$defs/${type}`;
      const generated = acpSchema(version).validator(pointer);
      const runtime = runtimeValidator(version, pointer);
      const ok = generated(value);
      expect(ok).toBe(runtime(value));
      const errs = (e: typeof generated.errors) =>
        (e ?? []).map((x) => `${x.instancePath} ${x.keyword} ${JSON.stringify(x.params)}`).sort();
      expect(errs(generated.errors)).toEqual(errs(runtime.errors));
    },
  );

  it("counts the RFD key in code points: 255 astral characters pass, 256 fail", () => {
    const v = acpSchema(2).validator("/$defs/PromptRequest");
    const prompt = (key: string) => ({
      sessionId: "s",
      prompt: [{ type: "text", text: "x" }],
      idempotencyKey: key,
    });
    expect(v(prompt("😀".repeat(255)))).toBe(true);
    expect(v(prompt("😀".repeat(256)))).toBe(false);
    expect(v.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual([
      "/idempotencyKey must NOT have more than 255 characters",
    ]);
  });
});
