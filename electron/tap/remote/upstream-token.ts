/**
 * The bearer token `proxy --agent-url URL --agent-token-file FILE` sends upstream. It is read from a
 * file, never argv (argv is visible to every local user in `ps`), and the file must be this user's
 * alone, like the tool's other private files: a regular file (not a symbolic link), owned by this
 * user, neither writable nor readable by its group or others (chmod 600).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { distrustReason } from "../../platform/path-trust.js";

/** The most a token file may hold; a token is one short line. */
const MAX_TOKEN_FILE_BYTES = 16 * 1024;

/** A token file that cannot be used; the message says why and what to do. */
export class UpstreamTokenError extends Error {}

/** Why `mode` lets someone else read the file, or undefined (Windows has no such mode bits). */
function readableByOthers(mode: number): string | undefined {
  if (process.platform === "win32" || (mode & 0o044) === 0) return undefined;
  const who = (mode & 0o040) !== 0 ? "its group" : "others";
  return `it is readable by ${who} (mode ${(mode & 0o777).toString(8).padStart(4, "0")})`;
}

/**
 * The token in `path`: its first line, trimmed. Throws `UpstreamTokenError` for a file that is not
 * this user's alone, is too large, holds no token, or a token that cannot go in an HTTP header.
 */
export function readUpstreamToken(path: string): string {
  const what = `--agent-token-file ${path}`;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === "ELOOP" ? "it is a symbolic link" : `${e.code ? `${e.code} ` : ""}${e.message}`;
    throw new UpstreamTokenError(`cannot use ${what}: ${why}`);
  }
  try {
    const stats = fstatSync(fd);
    const distrust = distrustReason(stats, "file") ?? readableByOthers(stats.mode);
    if (distrust !== undefined)
      throw new UpstreamTokenError(
        `refusing ${what}: ${distrust}; a token file must be yours alone (chmod 600 ${path})`,
      );
    if (stats.size > MAX_TOKEN_FILE_BYTES)
      throw new UpstreamTokenError(
        `refusing ${what}: it holds ${stats.size} bytes, more than a token (at most ${MAX_TOKEN_FILE_BYTES})`,
      );
    const buf = Buffer.alloc(Math.min(stats.size, MAX_TOKEN_FILE_BYTES));
    const n = buf.length === 0 ? 0 : readSync(fd, buf, 0, buf.length, 0);
    const token = buf.toString("utf8", 0, n).split(/\r?\n/, 1)[0]?.trim() ?? "";
    if (token === "") throw new UpstreamTokenError(`${what} holds no token (its first line is empty)`);
    // Visible ASCII only: anything else could split or corrupt the Authorization header.
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new UpstreamTokenError(
        `${what}: the token has a space or a character outside visible ASCII, which cannot go in an Authorization header`,
      );
    return token;
  } finally {
    closeSync(fd);
  }
}
