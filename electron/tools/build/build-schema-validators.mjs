// Generates electron/schema/generated/acp-validators.js: ajv's standalone code for the official ACP schemas the
// SDK ships (v1, and v2 with the RFD's idempotencyKey), so the page (whose CSP forbids `new Function`) and the
// CLI run the same compiled checks. Run by build-cli.mjs (so `npm run build`, the test setup and the bench build)
// and by vite's build. Usage: node electron/tools/build/build-schema-validators.mjs
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { _, Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { transformSync } from "esbuild";

/** The project root: the nearest folder above this file (or the bundle it was inlined into) whose package.json is ours. */
function findRoot(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "acp-retry-inspector") return dir;
    if (dirname(dir) === dir) throw new Error(`no acp-retry-inspector package.json above ${from}`);
  }
}

const root = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The project root folder (where package.json is), for the other build scripts. */
export const projectRoot = root;

/** Where the generated module goes (git-ignored; its types are the committed acp-validators.d.ts). */
export const validatorsModule = join(root, "electron", "schema", "generated", "acp-validators.js");

/**
 * The RFD's `session/prompt` `idempotencyKey` (v2 "Idempotency Keys" draft, not in the SDK schema yet): a string
 * of 1 to 255 characters, counted in Unicode code points (ajv's minLength/maxLength do), or null.
 */
const RFD_IDEMPOTENCY_KEY = {
  description: "RFD v2 Idempotency Keys (added by acp-retry-inspector; not in the SDK schema)",
  type: ["string", "null"],
  minLength: 1,
  maxLength: 255,
};

/** Integer formats of the schema (Rust's numeric types) with their ranges; `double` is any number. */
const INT_RANGES = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** The folder of the installed `@agentclientprotocol/sdk` (its `exports` do not list the schema files). */
function sdkFolder() {
  const entry = createRequire(import.meta.url).resolve("@agentclientprotocol/sdk");
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "@agentclientprotocol/sdk")
      return dir;
  }
  throw new Error(`@agentclientprotocol/sdk: no package folder above ${entry}`);
}

/** Drops `description` texts (not a property named "description"): they do not validate anything and are most of the size. */
function withoutDescriptions(node, parentKey) {
  if (Array.isArray(node)) return node.map((n) => withoutDescriptions(n));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "description" && typeof v === "string" && parentKey !== "properties") continue;
    out[k] = withoutDescriptions(v, k);
  }
  return out;
}

/** The schema of `version`; v2 gets the RFD's `idempotencyKey` on `PromptRequest`. */
function loadSchema(sdk, version) {
  const schema = JSON.parse(readFileSync(join(sdk, "schema", `v${version}`, "schema.json"), "utf8"));
  if (version === 2) schema.$defs.PromptRequest.properties.idempotencyKey = RFD_IDEMPOTENCY_KEY;
  return withoutDescriptions(schema);
}

/** JSON pointer escaping of one key. */
const esc = (k) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** Every node the check compiles by pointer: each `$defs` entry and each `anyOf`/`oneOf` branch anywhere (iterative walk). */
function compiledNodes(schema) {
  const out = Object.entries(schema.$defs).map(([name, node]) => [`/$defs/${esc(name)}`, node]);
  const stack = [[schema, ""]];
  while (stack.length > 0) {
    const [n, p] = stack.pop();
    if (n === null || typeof n !== "object") continue;
    for (const [k, v] of Object.entries(n)) {
      const ptr = `${p}/${esc(k)}`;
      if ((k === "anyOf" || k === "oneOf") && Array.isArray(v))
        for (let i = 0; i < v.length; i++) out.push([`${ptr}/${i}`, v[i]]);
      stack.push([v, ptr]);
    }
  }
  return out;
}

/**
 * The pointer whose validator checks exactly what `node` checks: a branch that is only a `$ref` to a `$defs`
 * entry (or an `allOf` of just that, with a title) is that entry; else null.
 */
function sameAsDef(node) {
  if (node === null || typeof node !== "object") return null;
  const keys = Object.keys(node).filter((k) => k !== "title" && k !== "description");
  if (keys.length === 1 && typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/"))
    return node.$ref.slice(1);
  if (keys.length === 1 && Array.isArray(node.allOf) && node.allOf.length === 1)
    return sameAsDef(node.allOf[0]);
  return null;
}

/** The generated module's source. */
function generate() {
  const sdk = sdkFolder();
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    inlineRefs: false,
    validateSchema: false,
    code: { source: true, esm: true, lines: false, formats: _`formats` },
  });
  const formatSource = `const formats = {${Object.entries(INT_RANGES)
    .map(
      ([n, [min, max]]) =>
        `${n}: {type: "number", validate: (n) => Number.isInteger(n) && n >= ${min} && n <= ${max}}`,
    )
    .join(", ")}, double: {type: "number", validate: () => true}};`;
  for (const [name, [min, max]] of Object.entries(INT_RANGES))
    ajv.addFormat(name, { type: "number", validate: (n) => Number.isInteger(n) && n >= min && n <= max });
  ajv.addFormat("double", { type: "number", validate: () => true });
  // Text formats are not checked (a false "violation" is worse than none): uri, date-time, regex.
  for (const name of ["uri", "date-time", "regex"]) ajv.addFormat(name, true);
  const exportsByName = {};
  const tables = [];
  const schemas = {};
  for (const version of [1, 2]) {
    const schema = loadSchema(sdk, version);
    schemas[version] = schema;
    ajv.addSchema(schema, `acp-v${version}`);
    const table = [];
    // one export per distinct node: the same text under the same root validates the same way
    const byText = new Map();
    for (const [ptr, node] of compiledNodes(schema)) {
      const key = sameAsDef(node) ?? JSON.stringify(node);
      let name = byText.get(key);
      if (!name) {
        name = `v${version}_${byText.size}`;
        const target = ptr.startsWith("/$defs/") || !sameAsDef(node) ? ptr : sameAsDef(node);
        exportsByName[name] = `acp-v${version}#${target}`;
        byText.set(key, name);
        if (ptr.startsWith("/$defs/")) byText.set(ptr, name);
      }
      table.push(`${JSON.stringify(ptr)}: ${name}`);
    }
    tables.push(`${version}: {${table.join(", ")}}`);
  }
  // ajv's standalone code require()s its small runtime helpers even in ESM: made imports
  const requires = new Map();
  const code = standaloneCode(ajv, exportsByName).replace(/require\("([^"]+)"\)\.default/g, (_m, spec) => {
    if (!requires.has(spec)) requires.set(spec, `ajvRuntime${requires.size}`);
    return requires.get(spec);
  });
  // a CommonJS default import is module.exports under Node and exports.default under a bundler's interop
  const imports = [...requires].map(
    ([spec, name]) =>
      `import ${name}Module from ${JSON.stringify(`${spec}.js`)};\nconst ${name} = typeof ${name}Module === "function" ? ${name}Module : ${name}Module.default;`,
  );
  const source = [
    ...imports,
    formatSource,
    code.replace(/^"use strict";/, ""),
    `export const schemaRoots = ${JSON.stringify(schemas)};`,
    `export const validatorsByPointer = {${tables.join(", ")}};`,
    "",
  ].join("\n");
  // minified: the module goes into the CLI and the page (a third smaller; the schema's literals stay)
  const { code: minified } = transformSync(source, { minify: true, format: "esm", target: "es2022" });
  return `// GENERATED by electron/tools/build/build-schema-validators.mjs from @agentclientprotocol/sdk's schemas: do not edit.\n${minified}`;
}

/** The inputs' fingerprint: the SDK's schemas, ajv's version and this generator. */
function inputsHash() {
  const h = createHash("sha256");
  const sdk = sdkFolder();
  for (const v of [1, 2]) h.update(readFileSync(join(sdk, "schema", `v${v}`, "schema.json")));
  h.update(readFileSync(createRequire(import.meta.url).resolve("ajv/package.json")));
  h.update(readFileSync(join(root, "electron", "tools", "build", "build-schema-validators.mjs")));
  return h.digest("hex").slice(0, 16);
}

/** Writes the generated module unless it is already up to date (atomically: parallel builds may race). */
export function buildSchemaValidators() {
  const hash = inputsHash();
  const stamp = `// inputs ${hash}\n`;
  if (existsSync(validatorsModule) && readFileSync(validatorsModule, "utf8").startsWith(stamp))
    return validatorsModule;
  mkdirSync(dirname(validatorsModule), { recursive: true });
  const tmp = `${validatorsModule}.${process.pid}.tmp`;
  writeFileSync(tmp, stamp + generate());
  renameSync(tmp, validatorsModule);
  return validatorsModule;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  console.log(buildSchemaValidators());
