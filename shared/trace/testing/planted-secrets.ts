/**
 * Test support: traces with credentials planted where they hide in real sessions (MCP server
 * headers and env in `session/new`/`session/resume`, URL userinfo and query values, secret-named
 * fields at any depth of any frame, `Bearer` in an error message, the agent's argv, notes), for
 * checking that none survives a redacted export. `plantedTrace` is a fast-check arbitrary.
 */
import fc from "fast-check";
import { TraceScript } from "../../analyzer/testing/trace-script.js";
import type { Direction, TraceHeader } from "../record.js";

/** A trace and the secrets planted in it. */
export interface PlantedTrace {
  readonly header: TraceHeader;
  readonly script: TraceScript;
  readonly secrets: readonly string[];
  /** The trace file's text. */
  readonly jsonl: string;
}

const UNRESERVED = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"];
/** A secret that can sit in a URL or after `Bearer` as it is: 12 to 32 URL-unreserved characters. */
const urlSecret = fc
  .string({ unit: fc.constantFrom(...UNRESERVED), minLength: 10, maxLength: 30 })
  .map((s) => `Q7${s}`);
/** A secret of any text (quotes, backslashes, newlines, emoji): for field values. */
const anySecret = fc
  .string({ unit: "grapheme", minLength: 10, maxLength: 30 })
  .map((s) => `Z9${s}`)
  .filter((s) => s.trim().length >= 8);

/** A secret-like field name in some casing and separator style: `apiKey`, `X-API-KEY`, `github_token` ... */
const secretName = fc
  .tuple(
    fc.constantFrom("", "x", "proxy", "github", "client", "access", "refresh", "session", "my", "OPENAI"),
    fc.constantFrom(
      ["authorization"],
      ["token"],
      ["secret"],
      ["password"],
      ["api", "key"],
      ["cookie"],
      ["credential"],
      ["credentials"],
      ["set", "cookie"],
      ["auth", "token"],
    ),
    fc.constantFrom("-", "_", "", ".", " "),
    fc.constantFrom("lower", "upper", "camel", "title"),
  )
  .map(([prefix, parts, sep, casing]) => {
    const words = [prefix, ...parts].filter((w) => w !== "");
    const cased = words.map((w, i) => {
      if (casing === "lower") return w.toLowerCase();
      if (casing === "upper") return w.toUpperCase();
      if (casing === "camel" && i === 0) return w.toLowerCase();
      return w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
    });
    return cased.join(casing === "camel" ? "" : sep);
  });

const method = fc.constantFrom(
  "session/new",
  "session/resume",
  "session/prompt",
  "session/update",
  "initialize",
  "authenticate",
  "_vendor/custom",
  "fs/read_text_file",
);
const direction = fc.constantFrom<Direction>("client->agent", "agent->client");

/** Puts `leaf` under `path` (field names) inside a fresh object. */
function nest(path: readonly string[], leaf: unknown): unknown {
  return path.reduceRight<unknown>((inner, name) => ({ [name]: inner }), leaf);
}
const innocentPath = fc.array(fc.constantFrom("params", "_meta", "config", "server", "extra", "options"), {
  maxLength: 3,
});

/** One planting: a function that writes one or more records into the script, and the secrets it used. */
type Plant = { secrets: string[]; write(t: TraceScript, id: number): void };

const mcpHeaders: fc.Arbitrary<Plant> = fc
  .tuple(
    urlSecret,
    fc.constantFrom("session/new", "session/resume"),
    fc.constantFrom("http", "sse"),
    secretName,
  )
  .map(([s, m, type, header]) => ({
    secrets: [s],
    write: (t, id) =>
      t.request(1, "client->agent", id, m, {
        ...(m === "session/resume" && { sessionId: "s-1" }),
        cwd: "/home/u/p",
        mcpServers: [
          {
            type,
            name: "tools",
            url: "https://mcp.example.com/mcp",
            headers: [{ name: header, value: `Bearer ${s}` }],
          },
          {
            type,
            name: "other",
            url: "https://mcp.example.com/x",
            headers: [{ name: "X-Custom", value: s }],
          },
        ],
      }),
  }));

const mcpEnv: fc.Arbitrary<Plant> = fc
  .tuple(anySecret, fc.constantFrom("session/new", "session/resume"))
  .map(([s, m]) => ({
    secrets: [s],
    write: (t, id) =>
      t.request(1, "client->agent", id, m, {
        sessionId: "s-1",
        cwd: "/home/u/p",
        mcpServers: [
          {
            name: "fs",
            command: "/usr/bin/mcp-fs",
            args: ["--root", "/"],
            env: [{ name: "HOME_DIR", value: s }],
          },
        ],
      }),
  }));

const urlUserinfo: fc.Arbitrary<Plant> = fc
  .tuple(urlSecret, urlSecret, fc.boolean(), method, direction)
  .map(([user, password, withPassword, m, dir]) => ({
    secrets: withPassword ? [password] : [user],
    write: (t, id) =>
      t.request(1, dir, id, m, {
        sessionId: "s-1",
        location: withPassword
          ? `https://${user}:${password}@git.example.com/repo.git`
          : `wss://${user}@h.example:8443/acp`,
      }),
  }));

const urlQuery: fc.Arbitrary<Plant> = fc
  .tuple(
    urlSecret,
    fc.constantFrom("token", "sig", "code", "key", "X-Amz-Signature", "q"),
    method,
    fc.boolean(),
  )
  .map(([s, name, m, inError]) => ({
    secrets: [s],
    write: (t, id) => {
      const url = `https://api.example.com/v1/things?page=2&${name}=${s}#frag`;
      if (inError) t.error(1, id, -32603, `upstream failed: cannot reach ${url} (timeout)`);
      else t.request(1, "client->agent", id, m, { sessionId: "s-1", resource: { uri: url } });
    },
  }));

const secretField: fc.Arbitrary<Plant> = fc
  .tuple(
    anySecret,
    secretName,
    innocentPath,
    method,
    direction,
    fc.constantFrom("request", "notify", "result", "error"),
  )
  .map(([s, name, path, m, dir, kind]) => ({
    secrets: [s],
    write: (t, id) => {
      const leaf = nest(path, { [name]: s, kept: 1 });
      if (kind === "request") t.request(1, dir, id, m, leaf as object);
      else if (kind === "notify") t.notify(1, dir, m, leaf as object);
      else if (kind === "result") t.result(1, dir, id, leaf);
      else t.send(1, dir, { jsonrpc: "2.0", id, error: { code: -32000, message: "nope", data: leaf } });
    },
  }));

const secretValueTree: fc.Arbitrary<Plant> = fc.tuple(anySecret, secretName, method).map(([s, name, m]) => ({
  secrets: [s],
  write: (t, id) => t.request(1, "agent->client", id, m, { [name]: { nested: [{ deeper: s }] } }),
}));

const namedPair: fc.Arbitrary<Plant> = fc
  .tuple(anySecret, secretName, fc.constantFrom("name", "key"))
  .map(([s, name, label]) => ({
    secrets: [s],
    write: (t, id) =>
      t.request(1, "client->agent", id, "_vendor/configure", { settings: [{ [label]: name, value: s }] }),
  }));

const bearerInText: fc.Arbitrary<Plant> = urlSecret.map((s) => ({
  secrets: [s],
  write: (t, id) => t.error(1, id, -32001, `auth rejected for header "Authorization: Bearer ${s}"`),
}));

const argv: fc.Arbitrary<Plant> = fc
  .tuple(urlSecret, secretName, fc.constantFrom("equals", "next", "env"))
  .map(([s, name, style]) => ({
    secrets: [s],
    write: (t) => {
      const flag = `--${name.replace(/[ .]/g, "-")}`;
      const words =
        style === "equals"
          ? [`${flag}=${s}`]
          : style === "next"
            ? [flag, s]
            : [`${name.replace(/[ .-]/g, "_")}=${s}`];
      t.spawn(4242, ["my-agent", "--acp", ...words]);
    },
  }));

const noteUrl: fc.Arbitrary<Plant> = fc.tuple(urlSecret, fc.boolean()).map(([s, asClose]) => ({
  secrets: [s],
  write: (t) => {
    const text = `forwarding to the agent at wss://agent.example/acp?access_token=${s}`;
    if (asClose) t.close(1, `cannot reach the agent at https://u:${s}@agent.example/acp: ECONNREFUSED`);
    else t.records.push({ type: "note", seq: 0, ts: 0, level: "info", text });
  },
}));

/** A trace with 1 to 8 credentials planted (and its header's agent argv may carry one more). */
export const plantedTrace: fc.Arbitrary<PlantedTrace> = fc
  .tuple(
    fc.array(
      fc.oneof(
        mcpHeaders,
        mcpEnv,
        urlUserinfo,
        urlQuery,
        secretField,
        secretValueTree,
        namedPair,
        bearerInText,
        argv,
        noteUrl,
      ),
      { minLength: 1, maxLength: 8 },
    ),
    fc.option(urlSecret, { nil: undefined }),
  )
  .map(([plants, headerSecret]) => {
    const script = new TraceScript().open(1);
    script.prompt(1, 0, "s-1", "a prompt that is redacted anyway", "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e");
    plants.forEach((p, i) => {
      p.write(script, i + 1);
    });
    // Plants that push records by hand get their seq and ts here.
    script.records.forEach((r, i) => {
      Object.assign(r, { seq: i + 1, ts: 1_700_000_000_000 + i + 1 });
    });
    const header: TraceHeader = {
      ...script.header(),
      agent: { command: ["my-agent", ...(headerSecret ? ["--api-key", headerSecret] : [])], cwd: "/home/u" },
    };
    const secrets = [...plants.flatMap((p) => p.secrets), ...(headerSecret ? [headerSecret] : [])];
    const jsonl = [header, ...script.records].map((r) => `${JSON.stringify(r)}\n`).join("");
    return { header, script, secrets, jsonl };
  });

/** Every string in a parsed export (keys and values, frames' `raw` parsed too), for looking up secrets. */
export function exportedStrings(jsonl: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      out.push(v);
      if (v.startsWith("{") || v.startsWith("[")) {
        try {
          walk(JSON.parse(v));
        } catch {
          // not JSON: the string itself was collected
        }
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        walk(x);
      }
    }
  };
  for (const line of jsonl.split("\n")) if (line !== "") walk(JSON.parse(line));
  return out;
}

/** The planted secrets still readable in an export (its text, or any string in it): none, when redaction works. */
export function survivingSecrets(jsonl: string, secrets: readonly string[]): string[] {
  const strings = exportedStrings(jsonl);
  return secrets.filter((s) => jsonl.includes(s) || strings.some((x) => x.includes(s)));
}
