/**
 * Where credentials hide in a trace, by name and by shape: fields named like a secret
 * (`Authorization`, `apiKey`, `x-api-key`, `GITHUB_TOKEN`, ...), the userinfo and query of URLs,
 * `Bearer`/`Basic` credentials inside text, and secret-named options of an agent's argv. Pure: each
 * function takes `hide`, which turns one secret into its placeholder.
 */
import { base64Bytes } from "./interchange/bytes.js";

/** Turns one secret string into what an export shows instead (a placeholder). */
export type Hide = (secret: string) => string;

/**
 * Name parts that make a field (or an option, or an environment variable) a secret, compared on
 * the name lower-cased with every separator removed: `apiKey`, `API_KEY`, `x-api-key` and
 * `Api.Key` all contain `apikey`; `Proxy-Authorization` contains `authorization`.
 */
export const SECRET_NAME_PARTS: readonly string[] = [
  "authorization",
  "token",
  "secret",
  "password",
  "passwd",
  "apikey",
  "cookie",
  "credential",
  "privatekey",
];
/** Names that are a secret only when they are the whole name (`auth`, not `authMethods`). */
export const SECRET_NAMES: readonly string[] = ["auth"];

/** Whether `name` names a secret: it contains a `SECRET_NAME_PARTS` entry, ignoring case and separators. */
export function isSecretName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SECRET_NAMES.includes(folded) || SECRET_NAME_PARTS.some((part) => folded.includes(part));
}

/**
 * A URL with a scheme, up to the first character that cannot be part of it in running text; or a
 * relative URL with a query of parameters (`/callback?code=...`, `cb?state=1&code=...`).
 */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*|(?<![\w.~%/-])[\w.~%/-]*\?[\w.~%[\]-]+=[^\s"'<>`]*/gi;
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is;
const RELATIVE_URL_PARTS = /^([^?#]*)(\?[^#]*)(#.*)?$/s;
/**
 * `Bearer <token68>` (any case), the token bare or quoted (`Bearer "abc"`, `bearer: 'abc'`,
 * `"Bearer":"abc"`, and the same with JSON's escaped quotes).
 */
const BEARER = /\b(bearer)(?=[\s"'`:=\\])(\s*\\?["'`]?\s*[:=]?\s*\\?["'`]?)([A-Za-z0-9\-._~+/]{8,}=*)/gi;
/** `Basic <base64>` in any case, the credential bare or quoted (`basic` only when it decodes to `user:password`). */
const BASIC = /\b(basic)(\s+\\?["'`]?|\s*[:=]\s*\\?["'`]?)([A-Za-z0-9+/]{8,}={0,2})/gi;

/** `a=1&b=2` with every value (and every bare parameter) hidden, names kept. */
function hideParams(params: string, hide: Hide): string {
  return params
    .split("&")
    .map((param) => {
      if (param === "") return param;
      const eq = param.indexOf("=");
      if (eq < 0) return hide(param);
      const value = param.slice(eq + 1);
      return `${param.slice(0, eq + 1)}${value === "" ? "" : hide(value)}`;
    })
    .join("&");
}

/** One URL with its userinfo, query values and `key=value` fragment values hidden; scheme, host and path kept. */
function hideInUrl(url: string, hide: Hide): string {
  const m = URL_PARTS.exec(url);
  if (!m) return url;
  const [, scheme = "", authority = "", path = "", query, fragment] = m;
  const at = authority.lastIndexOf("@");
  const host = at < 0 ? authority : `${hide(authority.slice(0, at))}${authority.slice(at)}`;
  const q = query === undefined || query === "?" ? (query ?? "") : `?${hideParams(query.slice(1), hide)}`;
  // A fragment is a location (`#L10`) unless it holds parameters (`#access_token=...`).
  const f = fragment?.includes("=") ? `#${hideParams(fragment.slice(1), hide)}` : (fragment ?? "");
  return `${scheme}${host}${path}${q}${f}`;
}

/** A relative URL (no scheme) with its query values and `key=value` fragment values hidden. */
function hideInRelativeUrl(url: string, hide: Hide): string {
  const m = RELATIVE_URL_PARTS.exec(url);
  if (!m) return url;
  const [, path = "", query = "?", fragment] = m;
  const f = fragment?.includes("=") ? `#${hideParams(fragment.slice(1), hide)}` : (fragment ?? "");
  return `${path}?${hideParams(query.slice(1), hide)}${f}`;
}

/** Whether a `basic` credential is one: the exact `Basic` scheme, or base64 that decodes to `user:password`. */
function isBasicCredential(scheme: string, secret: string): boolean {
  if (scheme === "Basic") return true;
  const bytes = base64Bytes(secret);
  return bytes?.includes(0x3a) === true;
}

/** `text` with the secrets it may quote hidden: URL userinfo and query values, Bearer and Basic credentials. */
export function hideSecretsInText(text: string, hide: Hide): string {
  let out = text;
  if (out.includes("://") || out.includes("?"))
    out = out.replace(URL_IN_TEXT, (match) => {
      // Punctuation that ends a sentence or a quote is not part of the URL in running text.
      const url = match.replace(/[.,:;!?)\]]+$/, "");
      const hidden = url.includes("://") ? hideInUrl(url, hide) : hideInRelativeUrl(url, hide);
      return hidden + match.slice(url.length);
    });
  if (/bearer|basic/i.test(out)) {
    out = out
      .replace(BEARER, (_, scheme: string, gap: string, secret: string) => `${scheme}${gap}${hide(secret)}`)
      .replace(BASIC, (all: string, scheme: string, gap: string, secret: string) =>
        isBasicCredential(scheme, secret) ? `${scheme}${gap}${hide(secret)}` : all,
      );
  }
  return out;
}

const OPTION = /^(--?)([A-Za-z0-9][A-Za-z0-9_.-]*)(=([\s\S]*))?$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/**
 * An argv with its secrets hidden: the value of a secret-named option (`--api-key=V`, or the word
 * after `--token`), of a secret-named assignment (`API_KEY=V`, as `env` takes it), and what
 * `hideSecretsInText` finds in every word.
 */
export function hideSecretsInArgv(argv: readonly string[], hide: Hide): string[] {
  let hideNext = false;
  return argv.map((word) => {
    if (hideNext) {
      hideNext = false;
      return hide(word);
    }
    const option = OPTION.exec(word);
    if (option && isSecretName(option[2] ?? "")) {
      if (option[3] === undefined) {
        hideNext = true;
        return word;
      }
      return `${option[1]}${option[2]}=${hide(option[4] ?? "")}`;
    }
    const assignment = ASSIGNMENT.exec(word);
    if (assignment && isSecretName(assignment[1] ?? ""))
      return `${assignment[1]}=${hide(assignment[2] ?? "")}`;
    return hideSecretsInText(word, hide);
  });
}
