import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lookupMethod, METHOD_CATALOGUE, type MethodKind, retryClassOf } from "./method-catalogue.js";

const schemaDir = join(import.meta.dirname, "../../node_modules/@agentclientprotocol/sdk/schema");
const SCHEMA_FILES = [
  "v1/schema.json",
  "v1/schema.unstable.json",
  "v2/schema.json",
  "v2/schema.unstable.json",
];

interface SchemaMethod {
  readonly file: string;
  readonly def: string;
  readonly method: string;
  readonly side: string;
  readonly kind: MethodKind;
}

/** Every definition with `x-method` in one schema file; the kind comes from the definition's name. */
function schemaMethods(file: string): SchemaMethod[] {
  const schema = JSON.parse(readFileSync(join(schemaDir, file), "utf8")) as {
    $defs: Record<string, { "x-method"?: string; "x-side"?: string }>;
  };
  const out: SchemaMethod[] = [];
  for (const [def, body] of Object.entries(schema.$defs)) {
    const method = body["x-method"];
    if (method === undefined) continue;
    if (def.endsWith("Response")) continue; // the response of a request already listed
    const kind: MethodKind | undefined = def.endsWith("Request")
      ? "request"
      : def.endsWith("Notification")
        ? "notification"
        : undefined;
    if (kind === undefined)
      throw new Error(`${file}: ${def} has x-method but is neither a request nor a notification`);
    out.push({ file, def, method, side: body["x-side"] ?? "?", kind });
  }
  return out;
}

describe("method catalogue", () => {
  const all = SCHEMA_FILES.flatMap(schemaMethods);

  it("reads a plausible number of methods from all four schema files", () => {
    for (const f of SCHEMA_FILES) expect(all.filter((m) => m.file === f).length).toBeGreaterThan(10);
    expect(all.some((m) => m.method === "session/prompt")).toBe(true);
    expect(all.some((m) => m.kind === "notification" && m.method === "session/update")).toBe(true);
  });

  it("classifies every method of every schema, with the schema's side", () => {
    const missing = all
      .filter((m) => lookupMethod(m.method, m.kind) === undefined)
      .map((m) => `${m.file}: ${m.kind} ${m.method} (${m.def})`);
    expect(missing).toEqual([]);
    const wrongSide = all
      .filter((m) => lookupMethod(m.method, m.kind)?.side !== m.side)
      .map((m) => `${m.kind} ${m.method}: schema says ${m.side}`);
    expect(wrongSide).toEqual([]);
  });

  it("lists nothing the schemas do not have, and nothing twice", () => {
    const inSchemas = new Set(all.map((m) => `${m.kind}:${m.method}`));
    const extra = METHOD_CATALOGUE.filter((e) => !inSchemas.has(`${e.kind}:${e.method}`)).map(
      (e) => e.method,
    );
    expect(extra).toEqual([]);
    const keys = METHOD_CATALOGUE.map((e) => `${e.kind}:${e.method}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("follows the RFD's audit", () => {
    expect(retryClassOf("session/prompt", "request")).toBe("keyed");
    expect(retryClassOf("session/new", "request")).toBe("duplicating");
    expect(retryClassOf("session/fork", "request")).toBe("duplicating");
    expect(retryClassOf("session/close", "request")).toBe("safe");
    expect(retryClassOf("session/delete", "request")).toBe("safe");
    expect(retryClassOf("session/resume", "request")).toBe("safe");
    const keyed = METHOD_CATALOGUE.filter((e) => e.retryClass === "keyed").map((e) => e.method);
    expect(keyed).toEqual(["session/prompt"]);
    const duplicating = METHOD_CATALOGUE.filter((e) => e.retryClass === "duplicating").map((e) => e.method);
    expect(duplicating.sort()).toEqual(["session/fork", "session/new"]);
  });

  it("makes every notification not-resent and gives every entry a reason", () => {
    for (const e of METHOD_CATALOGUE) {
      if (e.kind === "notification") expect(e.retryClass).toBe("not-resent");
      expect(e.reason.length).toBeGreaterThan(10);
    }
  });

  it("answers unclassified for unknown methods", () => {
    expect(retryClassOf("_vendor/thing", "request")).toBe("unclassified");
    expect(retryClassOf("session/prompt", "notification")).toBe("unclassified");
  });
});
