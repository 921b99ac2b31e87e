/** Where a remote front listens: always a loopback address. */
export interface ListenAddress {
  readonly host: "127.0.0.1";
  /** 0 picks a free port. */
  readonly port: number;
  /** The ACP endpoint path, `/acp` by default. */
  readonly path: string;
}

/** Parses `--listen ws://127.0.0.1:PORT[/PATH]` (or `http://`, or `localhost`); throws a readable error otherwise. */
export function parseListenUrl(value: string): ListenAddress {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--listen expects a URL like ws://127.0.0.1:8080, got '${value}'`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "http:")
    throw new Error(
      `--listen expects ws:// or http:// (both transports are served either way), got '${value}'`,
    );
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost")
    throw new Error(
      `--listen binds the loopback interface only: use 127.0.0.1 or localhost, not '${url.hostname}'`,
    );
  const port = url.port === "" ? 0 : Number(url.port);
  const path = url.pathname === "/" || url.pathname === "" ? "/acp" : url.pathname;
  return { host: "127.0.0.1", port, path };
}

/** Default of `proxy --max-agents`: concurrent client connections (each with its agent process or upstream connection). */
export const DEFAULT_MAX_AGENTS = 8;
