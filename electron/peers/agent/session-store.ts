/**
 * The demo agent's durable sessions: one append-only JSONL file per session under
 * `<store>/sessions/`. Appends are flushed before they return; a torn last record (a crash in the
 * middle of a write) is detected, ignored, and cut off before the next append.
 */

import { mkdirSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isUuid } from "../../../shared/keys/uuid.js";
import {
  appendRecordsDurably,
  createSessionFileDurably,
  readSessionFile,
  truncateSessionFile,
} from "./session-file.js";
import type { SessionHeaderRecord, SessionRecord } from "./session-record.js";

/** A session as read from its file. */
export interface StoredSession {
  readonly header: SessionHeaderRecord;
  readonly records: readonly SessionRecord[];
  /** Whether a torn or damaged tail was found (and cut off). */
  readonly repaired: boolean;
  /** Last modification time of the file, ISO 8601. */
  readonly updatedAt: string;
}

/** Append-only, file-per-session storage for the demo agent. */
export class SessionStore {
  private readonly sessionsDir: string;
  /** Sessions whose file was checked (and repaired) since this process started: safe to append to. */
  private readonly checked = new Set<string>();

  constructor(readonly root: string) {
    this.sessionsDir = join(root, "sessions");
    mkdirSync(this.sessionsDir, { recursive: true });
  }

  /** The file of a session. Session ids are UUIDs the agent made, which keeps paths inside the store. */
  pathOf(sessionId: string): string {
    if (!isUuid(sessionId)) throw new Error(`not a session id: ${sessionId}`);
    return join(this.sessionsDir, `${sessionId}.jsonl`);
  }

  /** Whether `sessionId` could name a stored session (a UUID); anything else is never looked up on disk. */
  static isSessionId(sessionId: unknown): sessionId is string {
    return typeof sessionId === "string" && isUuid(sessionId);
  }

  /** Creates a session file with its header and any copied history, durably. */
  create(header: SessionHeaderRecord, history: readonly SessionRecord[] = []): void {
    createSessionFileDurably(this.pathOf(header.sessionId), this.sessionsDir, [header, ...history]);
    this.checked.add(header.sessionId);
  }

  /** Reads a session; cuts off a damaged tail so later appends start clean. `undefined` if it does not exist (or was deleted while it was read). */
  read(sessionId: string): StoredSession | undefined {
    return this.load(sessionId, true);
  }

  /**
   * Reads a session without repairing it or opening it for appending. `session/list` peeks: the
   * files it reads may belong to other agent processes sharing the store, and a tail that looks
   * torn to this reader may be another process's append in progress.
   */
  peek(sessionId: string): StoredSession | undefined {
    return this.load(sessionId, false);
  }

  private load(sessionId: string, repair: boolean): StoredSession | undefined {
    if (!SessionStore.isSessionId(sessionId)) return undefined;
    const path = this.pathOf(sessionId);
    const contents = readSessionFile(path);
    const header = contents?.records[0];
    if (!contents || !header || header.t !== "session") return undefined;
    if (repair) {
      if (contents.damaged) truncateSessionFile(path, contents.goodBytes);
      this.checked.add(sessionId);
    }
    return {
      header,
      records: contents.records,
      repaired: repair && contents.damaged,
      updatedAt: contents.mtime.toISOString(),
    };
  }

  /** Appends records in one flushed write. The session must have been created or read by this process. */
  append(sessionId: string, ...records: SessionRecord[]): void {
    if (!this.checked.has(sessionId)) throw new Error(`session ${sessionId} was not opened before appending`);
    appendRecordsDurably(this.pathOf(sessionId), records);
  }

  /** Ids of every stored session. */
  ids(): string[] {
    return readdirSync(this.sessionsDir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => name.slice(0, -".jsonl".length))
      .filter((id) => isUuid(id));
  }

  /** Deletes a session's file; deleting a missing session succeeds. */
  async delete(sessionId: string): Promise<void> {
    if (!SessionStore.isSessionId(sessionId)) return;
    this.checked.delete(sessionId);
    await rm(this.pathOf(sessionId), { force: true });
  }
}
