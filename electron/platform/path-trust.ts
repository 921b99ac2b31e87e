/**
 * Whether a file or folder is this user's alone: the checks behind the private trace folders
 * (`electron/trace/private-files.ts`) and the hub's rendezvous (`electron/hub-client/rendezvous.ts`).
 * A path someone else owns, can write, or points elsewhere through a symbolic link can be swapped
 * under the tool: a trace written into someone's file, a tap streaming prompts to someone's hub.
 */
import { lstatSync, type Stats } from "node:fs";

/** `lstat` of `path` (a symbolic link itself, not what it points to), or `null` when nothing is there. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Whether `stats` belong to another user (never on Windows, which has no uid). */
export function ownedByAnotherUser(stats: Stats): boolean {
  return process.getuid !== undefined && stats.uid !== process.getuid();
}

/**
 * Why `stats` (from `lstat` or `fstat`) are not a `kind` this user alone controls: a symbolic link,
 * not a `kind` at all, another user's, or writable by its group or by others (Windows has no such
 * mode bits, so there only the first two count); `undefined` when it is.
 */
export function distrustReason(stats: Stats, kind: "folder" | "file"): string | undefined {
  if (stats.isSymbolicLink()) return "it is a symbolic link";
  if (kind === "folder" ? !stats.isDirectory() : !stats.isFile())
    return kind === "folder" ? "it is not a folder" : "it is not a regular file";
  if (ownedByAnotherUser(stats)) return `it belongs to another user (uid ${stats.uid})`;
  if (process.platform !== "win32" && (stats.mode & 0o022) !== 0)
    return `it is writable by ${(stats.mode & 0o020) !== 0 ? "its group" : "others"} (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")})`;
  return undefined;
}
