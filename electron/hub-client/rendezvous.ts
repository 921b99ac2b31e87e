import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

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

/** Writes the rendezvous file atomically with mode 0600 (its folder 0700); returns nothing, throws on I/O errors. */
export function writeRendezvous(path: string, r: Rendezvous): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(r)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the umask cannot widen it, but an existing tmp file could have kept other bits
  renameSync(tmp, path);
}

/** What is at the rendezvous path: nothing, a live hub, or a stale file whose hub process is gone. */
export type RendezvousState =
  | { readonly kind: "none" }
  | { readonly kind: "live"; readonly hub: Rendezvous }
  | { readonly kind: "stale"; readonly hub?: Rendezvous };

/** Reads the rendezvous file; a file that does not parse, or names a dead process, is `stale`. */
export function readRendezvous(path: string): RendezvousState {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { kind: "none" };
  }
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
  try {
    const r = JSON.parse(readFileSync(path, "utf8")) as Partial<Rendezvous>;
    if (r.hubId === hubId) rmSync(path, { force: true });
  } catch {
    // already gone or unreadable: nothing of ours to remove
  }
}
