import type { ValidateFunction } from "ajv/dist/2020.js";
import { schemaRoots, validatorsByPointer } from "./generated/acp-validators.js";

/** The ACP protocol versions whose official schema the SDK ships. */
export type SchemaVersion = 1 | 2;

/** How the output names each schema: the v2 one says it was extended. */
export const SCHEMA_LABEL: Record<SchemaVersion, string> = {
  1: "v1",
  2: "v2 (+ RFD idempotencyKey)",
};

/** A JSON Schema node (an object; `true`/`false` schemas are not used by the ACP schema). */
export type SchemaNode = Readonly<Record<string, unknown>>;

/**
 * One schema: its root and its validators by JSON pointer, both from the module generated at build
 * time (electron/tools/build/build-schema-validators.mjs: ajv's standalone code, so no code is
 * compiled at run time and the page's CSP can stay without `unsafe-eval`). Pure: the CLI, the hub
 * and the page all check with it.
 */
export class AcpSchema {
  constructor(
    readonly version: SchemaVersion,
    readonly root: SchemaNode,
    private readonly validators: Readonly<Record<string, ValidateFunction>>,
  ) {}

  /** The validator of the node at JSON pointer `pointer` (a `$defs` entry or an `anyOf`/`oneOf` branch). */
  validator(pointer: string): ValidateFunction {
    const v = this.validators[pointer];
    if (!v) throw new Error(`no generated validator for acp-v${this.version}#${pointer}`);
    return v;
  }

  /** The `$defs` entry named `name`, or undefined. */
  def(name: string): SchemaNode | undefined {
    return (this.root.$defs as Record<string, SchemaNode>)[name];
  }
}

const loaded = new Map<SchemaVersion, AcpSchema>();

/** The schema of `version` (v2 with the RFD's `session/prompt` `idempotencyKey`), prepared once per process. */
export function acpSchema(version: SchemaVersion): AcpSchema {
  let s = loaded.get(version);
  if (!s) {
    s = new AcpSchema(version, schemaRoots[version], validatorsByPointer[version]);
    loaded.set(version, s);
  }
  return s;
}
