import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { distrustReason, lstatOrNull } from "../platform/path-trust.js";

/** The content of the rendezvous file a running hub writes (mode 0600). */
export interface Rendezvous {
  readonly v: 1;
  readonly hubId: string;
  readonly pid: number;
  readonly port: number;
  readonly token: string;
  /** The UI link, its token in the fragment (`http://127.0.0.1:PORT/#token=…`). */
  readonly url: string;
  readonly startedAt: string;
}

/** Whether a process with this pid exists (signal 0 probes without signalling). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A rendezvous folder or file the tool will not use; the message says which, why and what to do. */
export class RendezvousTrustError extends Error {}

/** What to do about an untrusted rendezvous, appended to every refusal. */
const TRUST_ADVICE =
  "a rendezvous must be a real folder and file of yours that only you can write (remove or fix it, or point ACP_RETRY_INSPECTOR_RUNTIME_DIR at a folder of your own)";

/** Why the rendezvous folder of `path` cannot be trusted (a link, another user's, group/other-writable), or `undefined` (also when it does not exist). */
function folderProblem(path: string): string | undefined {
  const dir = dirname(path);
  const stats = lstatOrNull(dir);
  const why = stats && distrustReason(stats, "folder");
  return why ? `refusing the rendezvous folder ${dir}: ${why}; ${TRUST_ADVICE}` : undefined;
}

function fileProblem(path: string, why: string): string {
  return `refusing the rendezvous file ${path}: ${why}; ${TRUST_ADVICE}`;
}

/**
 * Writes the rendezvous file atomically with mode 0600 (its folder 0700). Refuses, with
 * `RendezvousTrustError`, a folder or an existing file that is a symbolic link, another user's or
 * writable by group or others: a tap trusts what it finds there. Throws on I/O errors.
 */
export function writeRendezvous(path: string, r: Rendezvous): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const badFolder = folderProblem(path);
  if (badFolder) throw new RendezvousTrustError(badFolder);
  const existing = lstatOrNull(path);
  const badFile = existing && distrustReason(existing, "file");
  if (badFile) throw new RendezvousTrustError(fileProblem(path, badFile));
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  // exclusive: created here with 0600, never an existing file or link of that name
  writeFileSync(tmp, `${JSON.stringify(r)}\n`, { mode: 0o600, flag: "wx" });
  renameSync(tmp, path);
}

/**
 * What is at the rendezvous path: nothing, a live hub, a stale file whose hub process is gone, or
 * a folder or file not to be trusted (`reason` says why and what to do).
 */
export type RendezvousState =
  | { readonly kind: "none" }
  | { readonly kind: "live"; readonly hub: Rendezvous }
  | { readonly kind: "stale"; readonly hub?: Rendezvous }
  | { readonly kind: "untrusted"; readonly reason: string };

/** The rendezvous file's text, read without following a link, or why it is not to be trusted. */
function readTrusted(path: string): { text: string } | { reason: string } | null {
  const badFolder = folderProblem(path);
  if (badFolder) return { reason: badFolder };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { reason: fileProblem(path, "it is a symbolic link") };
    return null;
  }
  try {
    const why = distrustReason(fstatSync(fd), "file");
    if (why) return { reason: fileProblem(path, why) };
    return { text: readFileSync(fd, "utf8") };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the rendezvous file; a file that does not parse, or names a dead process, is `stale`; a
 * folder or file that is a symbolic link, another user's, or writable by group or others is
 * `untrusted` and not read (its hub could be anyone's, and a tap would stream prompts to it).
 */
export function readRendezvous(path: string): RendezvousState {
  const read = readTrusted(path);
  if (read === null) return { kind: "none" };
  if ("reason" in read) return { kind: "untrusted", reason: read.reason };
  const text = read.text;
  try {
    const r = JSON.parse(text) as Partial<Rendezvous>;
    if (
      r.v !== 1 ||
      typeof r.pid !== "number" ||
      typeof r.port !== "number" ||
      typeof r.token !== "string" ||
      typeof r.hubId !== "string"
    )
      return { kind: "stale" };
    const hub = r as Rendezvous;
    return processAlive(hub.pid) ? { kind: "live", hub } : { kind: "stale", hub };
  } catch {
    return { kind: "stale" };
  }
}

/** Removes the rendezvous file if it is still the one `hubId` wrote (a newer hub may have replaced it). */
export function removeRendezvous(path: string, hubId: string): void {
  const read = readTrusted(path);
  if (read === null || "reason" in read) return;
  try {
    const r = JSON.parse(read.text) as Partial<Rendezvous>;
    if (r.hubId === hubId) rmSync(path, { force: true });
  } catch {
    // already gone or unreadable: nothing of ours to remove
  }
}
