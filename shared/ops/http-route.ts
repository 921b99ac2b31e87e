/**
 * How an operation travels over the hub's HTTP API: method, path (with `:name` segments taken from
 * the arguments), which argument is the body, the success status and whether the answer is a file.
 * Both directions live here: the hub matches requests to routes, clients build requests from them.
 */

/** An HTTP method the API uses. */
export type HttpMethod = "GET" | "POST" | "DELETE";

/** One operation's HTTP route. */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** The path pattern, e.g. `/api/faults/:id`. */
  readonly path: string;
  /** The argument sent as the request body (the whole body), if any. */
  readonly body?: string;
  /** `json`: the body is that argument as JSON; `jsonl`: it is that argument's text, as trace lines. */
  readonly bodyType: "json" | "jsonl";
  /** The status of a success. */
  readonly status: number;
  /** `json`: the result as a JSON body; `file`: the result's `text` is the whole body, streamed from disk. */
  readonly response: "json" | "file";
}

/** What a route may set beyond its method and path. */
export type RouteOptions = Partial<Pick<HttpRoute, "body" | "bodyType" | "status" | "response">>;

/** A route whose `response` is known to the type system (so file results can be typed apart). */
export type TypedRoute<O extends RouteOptions> = HttpRoute & {
  readonly response: O["response"] extends "file" ? "file" : "json";
};

/** Declares a route; defaults: no body, JSON both ways, 200. */
export function route<const O extends RouteOptions = Record<never, never>>(
  method: HttpMethod,
  path: string,
  options?: O,
): TypedRoute<O> {
  return { method, path, bodyType: "json", status: 200, response: "json", ...options } as TypedRoute<O>;
}

/** The path's `:name` segments, decoded, when `pathname` matches the pattern; undefined otherwise. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(":")) {
      if (g.length === 0) return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** A request a client sends for one call. */
export interface HttpRequestPlan {
  readonly method: HttpMethod;
  /** The path with its `:name` segments filled in and encoded. */
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
}

/** Builds the request for a call with (already validated) `args`. */
export function requestFor(r: HttpRoute, args: Readonly<Record<string, unknown>>): HttpRequestPlan {
  const path = r.path
    .split("/")
    .map((s) => (s.startsWith(":") ? encodeURIComponent(String(args[s.slice(1)])) : s))
    .join("/");
  if (r.body === undefined) return { method: r.method, path };
  const value = args[r.body];
  return r.bodyType === "jsonl"
    ? { method: r.method, path, contentType: "application/x-ndjson", body: String(value) }
    : { method: r.method, path, contentType: "application/json", body: JSON.stringify(value) };
}
