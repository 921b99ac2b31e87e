import type { AcpSchema } from "./acp-schemas.js";

/** Which part of a JSON-RPC frame a schema type describes. */
export type FrameKind = "request" | "result" | "error" | "notification";

/** The `$defs` suffix the SDK schema gives each kind's type (`PromptRequest`, `PromptResponse`, ...). */
const SUFFIX: Record<Exclude<FrameKind, "error">, string> = {
  request: "Request",
  result: "Response",
  notification: "Notification",
};

const tables = new WeakMap<AcpSchema, Map<string, string>>();

/**
 * The `$defs` name of the schema type for `kind` of `method` (request params, the result of that
 * method's request, notification params), found from the schema's own `x-method` tags; `Error` for
 * every error object; null when the schema has no such method.
 */
export function frameType(schema: AcpSchema, kind: FrameKind, method: string): string | null {
  if (kind === "error") return "Error";
  let table = tables.get(schema);
  if (!table) {
    table = new Map();
    for (const [name, def] of Object.entries(schema.root.$defs as Record<string, Record<string, unknown>>)) {
      const m = def["x-method"];
      if (typeof m !== "string") continue;
      for (const [k, suffix] of Object.entries(SUFFIX))
        if (name.endsWith(suffix)) table.set(`${k} ${m}`, name);
    }
    tables.set(schema, table);
  }
  return table.get(`${kind} ${method}`) ?? null;
}
