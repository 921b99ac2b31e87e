import type { ErrorObject } from "ajv/dist/2020.js";
import type { SchemaViolation } from "../../shared/schema/schema-report.js";
import type { AcpSchema, SchemaNode } from "./acp-schemas.js";

/** At most this many violations are listed per frame (the last entry then says how many more). */
export const MAX_VIOLATIONS = 10;

const pointers = new WeakMap<AcpSchema, Map<string, string>>();

/**
 * The JSON pointer of a union branch of `schema` given as an error's `parentSchema` member: found by
 * its JSON text (the generated validators carry their own copies of the schema's nodes, and equal
 * nodes under the same root validate alike). The map of every `anyOf`/`oneOf` branch is built once, iteratively.
 */
function pointerOf(schema: AcpSchema, node: object): string | undefined {
  let map = pointers.get(schema);
  if (!map) {
    const m = new Map<string, string>();
    const stack: [unknown, string][] = [[schema.root, ""]];
    while (stack.length > 0) {
      const [n, p] = stack.pop() as [unknown, string];
      if (n === null || typeof n !== "object") continue;
      for (const [k, v] of Object.entries(n)) {
        const ptr = `${p}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if ((k === "anyOf" || k === "oneOf") && Array.isArray(v))
          v.forEach((b, i) => {
            const text = JSON.stringify(b);
            if (!m.has(text)) m.set(text, `${ptr}/${i}`);
          });
        stack.push([v, ptr]);
      }
    }
    pointers.set(schema, m);
    map = m;
  }
  return map.get(JSON.stringify(node));
}

const discriminatorCache = new WeakMap<SchemaNode, Record<string, unknown>>();

/** The `const` properties a union branch requires (its own and those of its `allOf` members, `$ref`s followed), found once per branch. */
function discriminators(schema: AcpSchema, branch: SchemaNode): Record<string, unknown> {
  const known = discriminatorCache.get(branch);
  if (known) return known;
  const out: Record<string, unknown> = {};
  discriminatorCache.set(branch, out);
  const stack: SchemaNode[] = [branch];
  for (let n = 0; stack.length > 0 && n < 32; n++) {
    let s = stack.pop() as SchemaNode;
    if (typeof s.$ref === "string" && s.$ref.startsWith("#/$defs/")) s = schema.def(s.$ref.slice(8)) ?? {};
    for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, SchemaNode>))
      if ("const" in p) out[k] = p.const;
    if (Array.isArray(s.allOf)) stack.push(...(s.allOf as SchemaNode[]));
  }
  return out;
}

/** The value at JSON pointer `path` (ajv's instancePath) inside `value`. */
function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const raw of path.split("/").slice(1)) {
    const k = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  }
  return v;
}

/**
 * Readable violations from ajv's errors for `value`: ajv lists the errors of every branch of a
 * failed `anyOf`/`oneOf`; where the branch meant is clear (its `const` discriminator matches, or it
 * is the only branch that is not `null`), only that branch's errors are kept; where no branch's
 * discriminator matches, one line names the allowed values. `base` prefixes every path.
 */
export function readableViolations(
  schema: AcpSchema,
  errors: readonly ErrorObject[],
  value: unknown,
  base: string,
  depth = 0,
): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  const replaced: string[] = [];
  const unions = errors
    .filter((e) => (e.keyword === "anyOf" || e.keyword === "oneOf") && e.parentSchema)
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const u of unions) {
    const at = u.instancePath;
    if (replaced.some((p) => at === p || at.startsWith(`${p}/`))) continue;
    const v = valueAt(value, at);
    const branches = ((u.parentSchema as SchemaNode)[u.keyword] ?? []) as SchemaNode[];
    // a branch whose discriminator matches is the one meant; else any branch without one (not `null` for a non-null value)
    const matching = branches.filter((b) => {
      const d = discriminators(schema, b);
      const keys = Object.keys(d);
      return (
        keys.length > 0 &&
        v !== null &&
        typeof v === "object" &&
        keys.every((k) => (v as Record<string, unknown>)[k] === d[k])
      );
    });
    const candidates =
      matching.length > 0
        ? matching
        : branches.filter(
            (b) => Object.keys(discriminators(schema, b)).length === 0 && !(b.type === "null" && v !== null),
          );
    let found: SchemaViolation[] | null = null;
    const ptr = candidates.length === 1 ? pointerOf(schema, candidates[0] as object) : undefined;
    if (ptr !== undefined && depth < 16) {
      const validate = schema.validator(ptr);
      if (!validate(v))
        found = readableViolations(schema, validate.errors ?? [], v, `${base}${at}`, depth + 1);
    } else if (candidates.length === 0) {
      const allowed = branches.map((b) => discriminators(schema, b)).filter((d) => Object.keys(d).length > 0);
      const field = allowed[0] ? Object.keys(allowed[0])[0] : undefined;
      if (field !== undefined)
        found = [
          {
            path: `${base}${at}/${field}`,
            message: `must be one of ${JSON.stringify(allowed.map((d) => d[field]))}`,
          },
        ];
    }
    if (found) {
      replaced.push(at);
      out.push(...found);
    }
  }
  for (const e of errors) {
    const at = e.instancePath;
    if (replaced.some((p) => at === p || at.startsWith(`${p}/`))) continue;
    const params = e.params as Record<string, unknown>;
    let message = e.message ?? e.keyword;
    if (e.keyword === "enum") message += `: ${JSON.stringify(params.allowedValues)}`;
    else if (e.keyword === "const") message += `: ${JSON.stringify(params.allowedValue)}`;
    out.push({ path: `${base}${at}`, message });
  }
  const seen = new Set<string>();
  return out.filter((v) => {
    const key = `${v.path}\n${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `violations` capped at MAX_VIOLATIONS, the last line then saying how many more. */
export function capViolations(violations: SchemaViolation[], base: string): SchemaViolation[] {
  if (violations.length <= MAX_VIOLATIONS) return violations;
  return [
    ...violations.slice(0, MAX_VIOLATIONS),
    { path: base, message: `(${violations.length - MAX_VIOLATIONS} more)` },
  ];
}
