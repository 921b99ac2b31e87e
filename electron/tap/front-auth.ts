import { newFrontToken, tokenFilePath } from "../platform/front-token.js";
import { writePrivateFile } from "../trace/private-files.js";
import { DEFAULT_MAX_AGENTS } from "./remote/listen-url.js";

/**
 * How a tap's remote front authenticates clients: a token the starter chose (neither printed nor
 * written), a fresh one (printed once and written next to the trace), or none (`--no-auth`).
 */
export type FrontAuth =
  | {
      readonly token: string;
      /** Where it came from, said on stderr (e.g. the environment variable); unsaid when absent. */
      readonly source?: string;
    }
  | "generate"
  | "none";

/** The front's token and whether the tap made it; null with `"none"` (said, with the risk). */
export function frontToken(
  auth: FrontAuth,
  maxAgents: number | undefined,
  say: (message: string) => void,
): { value: string; generated: boolean } | null {
  if (auth === "none") {
    say(
      `--no-auth: this front takes connections without a token; any local process can connect and start agents (at most ${maxAgents ?? DEFAULT_MAX_AGENTS} at a time)`,
    );
    return null;
  }
  if (auth === "generate") return { value: newFrontToken(), generated: true };
  if (auth.source !== undefined) say(`token: from ${auth.source}`);
  return { value: auth.token, generated: false };
}

/** Prints a generated token once and writes it (0600) next to the trace; returns the file written, if any. */
export function publishToken(
  token: string,
  tracePath: string | null,
  say: (message: string) => void,
): string | null {
  const file = tracePath === null ? null : tokenFilePath(tracePath);
  let where = "not written to a file: there is no trace file";
  let written: string | null = null;
  if (file !== null) {
    try {
      writePrivateFile(file, `${token}\n`);
      where = `also in ${file}, mode 0600, removed when the front stops`;
      written = file;
    } catch (err) {
      where = `not written to a file: ${(err as Error).message}`;
    }
  }
  say(`token: ${token} (clients send "Authorization: Bearer <token>"; ${where})`);
  return written;
}
