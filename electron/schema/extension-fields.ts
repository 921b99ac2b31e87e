import type { SchemaExtension } from "../../shared/schema/schema-report.js";
import type { AcpSchema, SchemaNode } from "./acp-schemas.js";

/** At most this many extension fields are listed per frame; the rest are counted in the last mark's path. */
export const MAX_EXTENSIONS = 50;

/** A schema node with its JSON pointer in the schema (validators are compiled by pointer). */
interface At {
  readonly node: SchemaNode;
  readonly ptr: string;
}

/** JSON pointer escaping of one key. */
function esc(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Follows `$ref`s (`#/$defs/X`) from `at`, at most 32 hops. */
function resolve(schema: AcpSchema, at: At): At {
  let cur = at;
  for (let hops = 0; hops < 32 && typeof cur.node.$ref === "string"; hops++) {
    const ref = cur.node.$ref as string;
    const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : null;
    const def = name === null ? undefined : schema.def(name);
    if (!def) break;
    cur = { node: def, ptr: `/$defs/${esc(name as string)}` };
  }
  return cur;
}

/**
 * The schema nodes that apply to `value` at `at`: the node itself after `$ref`, every `allOf`
 * member, and the `anyOf`/`oneOf` branches `value` matches (checked with the schema's own validator).
 */
function applicable(schema: AcpSchema, at: At, value: unknown, out: At[], depth = 0): void {
  if (depth > 64) return;
  const cur = resolve(schema, at);
  out.push(cur);
  const n = cur.node;
  if (Array.isArray(n.allOf))
    for (let i = 0; i < n.allOf.length; i++)
      applicable(schema, { node: n.allOf[i], ptr: `${cur.ptr}/allOf/${i}` }, value, out, depth + 1);
  for (const word of ["anyOf", "oneOf"] as const) {
    const branches = n[word];
    if (!Array.isArray(branches)) continue;
    for (let i = 0; i < branches.length; i++) {
      const ptr = `${cur.ptr}/${word}/${i}`;
      if (schema.validator(ptr)(value)) {
        applicable(schema, { node: branches[i], ptr }, value, out, depth + 1);
        if (word === "oneOf") break;
      }
    }
  }
}

/**
 * The extension fields of `value` (already valid against the node at `ptr`): every `_meta` and every
 * property no applicable schema node declares where none leaves the object open
 * (`additionalProperties`, `patternProperties`). Iterative; `value` is known to nest at most
 * MAX_JSON_DEPTH deep (checked before). `base` is the value's own JSON pointer in the frame.
 */
export function extensionFields(
  schema: AcpSchema,
  ptr: string,
  value: unknown,
  base: string,
): SchemaExtension[] {
  const out: SchemaExtension[] = [];
  const stack: { at: At; value: unknown; path: string }[] = [];
  stack.push({ at: { node: nodeAt(schema, ptr), ptr }, value, path: base });
  while (stack.length > 0 && out.length < MAX_EXTENSIONS) {
    const { at, value: v, path } = stack.pop() as (typeof stack)[number];
    if (v === null || typeof v !== "object") continue;
    const nodes: At[] = [];
    applicable(schema, at, v, nodes);
    if (Array.isArray(v)) {
      const items = nodes.filter((a) => a.node.items && typeof a.node.items === "object");
      v.forEach((item, i) => {
        for (const a of items)
          stack.push({
            at: { node: a.node.items as SchemaNode, ptr: `${a.ptr}/items` },
            value: item,
            path: `${path}/${i}`,
          });
      });
      continue;
    }
    const declared = new Map<string, At[]>();
    let open = false;
    let typed = false;
    for (const a of nodes) {
      const props = a.node.properties as Record<string, SchemaNode> | undefined;
      if (props) {
        typed = true;
        for (const [k, s] of Object.entries(props)) {
          const list = declared.get(k) ?? [];
          list.push({ node: s, ptr: `${a.ptr}/properties/${esc(k)}` });
          declared.set(k, list);
        }
      }
    }
    for (const a of nodes) {
      if (a.node.patternProperties) open = true;
      const extra = a.node.additionalProperties;
      if (extra === true) open = true;
      else if (extra && typeof extra === "object") {
        open = true;
        const ptr = `${a.ptr}/additionalProperties`;
        for (const [k, child] of Object.entries(v))
          if (!declared.has(k))
            stack.push({ at: { node: extra as SchemaNode, ptr }, value: child, path: `${path}/${esc(k)}` });
      }
    }
    for (const [k, child] of Object.entries(v)) {
      const p = `${path}/${esc(k)}`;
      if (k === "_meta") {
        if (child !== null && child !== undefined) out.push({ path: p, kind: "meta" });
        continue;
      }
      const at = declared.get(k);
      if (at) for (const a of at) stack.push({ at: a, value: child, path: p });
      else if (typed && !open) out.push({ path: p, kind: "undeclared" });
    }
  }
  return out.slice(0, MAX_EXTENSIONS);
}

/** The schema node at JSON pointer `ptr` (only `/$defs/Name` pointers are used as starts). */
function nodeAt(schema: AcpSchema, ptr: string): SchemaNode {
  const name = ptr.slice("/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~");
  return schema.def(name) ?? {};
}
