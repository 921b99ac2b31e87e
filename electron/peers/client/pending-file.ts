/** A `SubmissionStore` in one JSON file: written to a temp file, flushed, then renamed over the old one. */

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { SubmissionStore, TrackerSnapshot } from "../../../shared/keys/client-submission-tracker.js";

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
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.tmp`;
    const fd = openSync(temp, "w");
    try {
      writeSync(fd, `${JSON.stringify(snapshot, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
  }
}
