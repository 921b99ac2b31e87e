/**
 * A `SubmissionStore` in one JSON file: written to a temp file, flushed, then renamed over the old
 * one. It holds prompt texts, so it is private like a trace: the temp file is created exclusively
 * with mode 0600 (a leftover temp file, or a symbolic link in its place, is removed first, never
 * followed) and a missing folder is created 0700.
 */

import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { SubmissionStore, TrackerSnapshot } from "../../../shared/keys/client-submission-tracker.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../trace/private-files.js";

/** The pending-submission file of the demo client. A crash leaves either the old or the new snapshot, never a mix. */
export class PendingSubmissionFile implements SubmissionStore {
  constructor(readonly path: string) {}

  load(): TrackerSnapshot | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
    const parsed = JSON.parse(text) as TrackerSnapshot;
    if (!parsed || !Array.isArray(parsed.submissions))
      throw new Error(`${this.path} is not a pending-submission file`);
    return parsed;
  }

  save(snapshot: TrackerSnapshot): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${this.path}.tmp`;
    // Removing the name (not what a link points to) and creating it exclusively: never writes through a link.
    rmSync(temp, { force: true });
    const fd = openSync(temp, "wx", PRIVATE_FILE_MODE);
    try {
      writeSync(fd, `${JSON.stringify(snapshot, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
  }
}
