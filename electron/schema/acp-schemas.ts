import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/** The ACP protocol versions whose official schema the SDK ships. */
export type SchemaVersion = 1 | 2;

/**
 * The RFD's `session/prompt` `idempotencyKey` (v2 "Idempotency Keys" draft, not in the SDK 2.4.0
 * schema yet): a string of 1 to 255 characters; omitted and null mean no key. Ajv counts string
 * length in Unicode code points (an astral character is one), as Rust's schemars/jsonschema do.
 */
export const RFD_IDEMPOTENCY_KEY = {
  description: "RFD v2 Idempotency Keys (added by acp-retry-inspector; not in the SDK schema)",
  type: ["string", "null"],
  minLength: 1,
  maxLength: 255,
} as const;

/** How the output names each schema: the v2 one says it was extended. */
export const SCHEMA_LABEL: Record<SchemaVersion, string> = {
  1: "v1",
  2: "v2 (+ RFD idempotencyKey)",
};

/** The folder of the installed `@agentclientprotocol/sdk` (its `exports` do not list the schema files, so found from its entry). */
function sdkFolder(): string {
  const entry = createRequire(import.meta.url).resolve("@agentclientprotocol/sdk");
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string };
      if (pkg.name === "@agentclientprotocol/sdk") return dir;
    } catch {
      // no package.json here: go up
    }
  }
  throw new Error(`@agentclientprotocol/sdk: no package folder above ${entry}`);
}

/** A JSON Schema node (an object; `true`/`false` schemas are not used by the ACP schema). */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** Integer formats of the schema (Rust's numeric types) with their ranges; `double` is any number. */
const INT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** One loaded schema: its root, and validators compiled on demand for any node by JSON pointer. */
export class AcpSchema {
  readonly root: SchemaNode;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    readonly version: SchemaVersion,
    root: SchemaNode,
  ) {
    this.root = root;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false });
    for (const [name, [min, max]] of Object.entries(INT_RANGES))
      this.ajv.addFormat(name, {
        type: "number",
        validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
      });
    this.ajv.addFormat("double", { type: "number", validate: () => true });
    // Text formats are not checked (a false "violation" is worse than none): uri, date-time, regex.
    for (const name of ["uri", "date-time", "regex"]) this.ajv.addFormat(name, true);
    this.ajv.addSchema(root, this.id);
  }

  private get id(): string {
    return `acp-v${this.version}`;
  }

  /** The validator of the node at JSON pointer `pointer` (e.g. `/$defs/PromptRequest`), compiled once. */
  validator(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${this.id}#${pointer}` });
      this.compiled.set(pointer, v);
    }
    return v;
  }

  /** The `$defs` entry named `name`, or undefined. */
  def(name: string): SchemaNode | undefined {
    return (this.root.$defs as Record<string, SchemaNode>)[name];
  }
}

/** Reads the SDK's stable schema of `version`; v2 gets the RFD's `idempotencyKey` on `PromptRequest`. */
function loadSchema(version: SchemaVersion): AcpSchema {
  const root = JSON.parse(readFileSync(join(sdkFolder(), "schema", `v${version}`, "schema.json"), "utf8"));
  if (version === 2) root.$defs.PromptRequest.properties.idempotencyKey = RFD_IDEMPOTENCY_KEY;
  return new AcpSchema(version, root);
}

const loaded = new Map<SchemaVersion, AcpSchema>();

/** The schema of `version`, loaded and prepared once per process. */
export function acpSchema(version: SchemaVersion): AcpSchema {
  let s = loaded.get(version);
  if (!s) {
    s = loadSchema(version);
    loaded.set(version, s);
  }
  return s;
}
