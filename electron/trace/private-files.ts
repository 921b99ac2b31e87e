/**
 * Creating files and folders that only this user can read: traces hold every prompt and file an
 * agent saw. A file is created exclusively (`wx`: O_CREAT|O_EXCL, mode 0600), so a path that
 * already exists is refused whatever it is: a file of ours (never replaced), someone else's, or a
 * symbolic link (O_EXCL never follows one, so nobody can point a trace at a file of their choice).
 * A folder is created with mode 0700; an existing one must be a real folder of this user.
 */
import { chmodSync, closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { ownedByAnotherUser as foreign, lstatOrNull } from "../platform/path-trust.js";

/** Mode of every trace file, token file and export the tool creates. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of every folder the tool creates for them. */
export const PRIVATE_DIR_MODE = 0o700;

/** A file or folder that cannot be created privately; the message says why and what to do. */
export class PrivateFileError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Why an exclusive create of `path` failed with `err`, in words (EEXIST says what is in the way). */
export function describeCreateFailure(path: string, err: NodeJS.ErrnoException): string {
  if (err.code !== "EEXIST") return `${err.code ? `${err.code} ` : ""}${err.message}`;
  const stats = lstatOrNull(path);
  const what = stats?.isSymbolicLink()
    ? "it is a symbolic link"
    : stats && foreign(stats)
      ? "it is a file that belongs to another user"
      : "it already exists";
  return `${what}, and an existing path is never replaced or followed (give a path that does not exist yet)`;
}

/** How many suffixed names `freeTracePath` tries. */
const MAX_SUFFIX = 99;

/**
 * Where to write a trace the user asked for at `path`: `path` itself unless it is a regular file
 * of this user already (an earlier trace, or the trace of a proxy still running with the same
 * `--trace`), then the first free `<stem>-2<ext>`, `<stem>-3<ext>`, ... A symbolic link, another
 * user's file or a device is returned as it is, so the exclusive create refuses it. Never
 * replaces anything: the name is only a choice, the create stays exclusive.
 */
export function freeTracePath(path: string): string {
  const stats = lstatOrNull(path);
  if (!stats?.isFile() || foreign(stats)) return path;
  const dot = path.lastIndexOf(".");
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
  for (let n = 2; n <= MAX_SUFFIX; n++) {
    const candidate = `${stem}-${n}${ext}`;
    if (lstatOrNull(candidate) === null) return candidate;
  }
  return path;
}

/** Creates `path` exclusively with mode 0600 and returns its file descriptor; throws `PrivateFileError`. */
export function createPrivateFile(path: string): number {
  try {
    return openSync(path, "wx", PRIVATE_FILE_MODE);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new PrivateFileError(`cannot create ${path}: ${describeCreateFailure(path, e)}`, e.code);
  }
}

/** Creates `path` exclusively (0600), writes `text` and closes it; throws `PrivateFileError`. */
export function writePrivateFile(path: string, text: string): void {
  const fd = createPrivateFile(path);
  try {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes sure `dir` is a private folder: creates it (and missing parents) with mode 0700, or checks
 * that the existing one is a real folder (not a symbolic link) of this user and narrows a wider mode
 * to 0700. Throws `PrivateFileError` otherwise. For folders the tool owns (the per-user traces
 * folder, a run's folder), not for the folder of a path the user gave.
 */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new PrivateFileError(
      `cannot create the folder ${dir}: ${e.code ?? ""} ${e.message}`.trim(),
      e.code,
    );
  }
  const stats = lstatOrNull(dir);
  if (stats === null || !stats.isDirectory())
    throw new PrivateFileError(
      `cannot use the folder ${dir}: ${stats?.isSymbolicLink() ? "it is a symbolic link" : "it is not a folder"}`,
    );
  if (foreign(stats)) throw new PrivateFileError(`cannot use the folder ${dir}: it belongs to another user`);
  if ((stats.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, PRIVATE_DIR_MODE);
    } catch (err) {
      throw new PrivateFileError(`cannot make the folder ${dir} private (0700): ${(err as Error).message}`);
    }
  }
}
