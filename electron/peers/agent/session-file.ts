/**
 * Line codec and durable append for one session file. Every line carries a CRC-32 of its record
 * text; reading stops at the first line that is incomplete or fails its check (a torn last write
 * after a crash) and reports where the good part ends, so the writer can cut the damage off
 * before it appends again.
 */

import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { crc32 } from "node:zlib";
import type { SessionRecord } from "./session-record.js";

const PREFIX = '{"rec":';
const SUFFIX_LENGTH = ',"crc":"00000000"}'.length;

/** One record as a file line, with its checksum and the trailing newline. */
export function encodeRecordLine(record: SessionRecord): string {
  const text = JSON.stringify(record);
  const crc = crc32(text).toString(16).padStart(8, "0");
  return `${PREFIX}${text},"crc":"${crc}"}\n`;
}

/** Decodes one line (without its newline); `undefined` when it is damaged. */
export function decodeRecordLine(line: string): SessionRecord | undefined {
  if (!line.startsWith(PREFIX) || line.length < PREFIX.length + SUFFIX_LENGTH) return undefined;
  const text = line.slice(PREFIX.length, line.length - SUFFIX_LENGTH);
  const suffix = line.slice(line.length - SUFFIX_LENGTH);
  const match = /^,"crc":"([0-9a-f]{8})"\}$/.exec(suffix);
  if (!match || crc32(text).toString(16).padStart(8, "0") !== match[1]) return undefined;
  try {
    const record = JSON.parse(text) as SessionRecord;
    return record && typeof record === "object" && typeof record.t === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

/** What reading a session file found. */
export interface SessionFileContents {
  readonly records: SessionRecord[];
  /** Byte length of the intact prefix: everything after it is a torn or damaged tail. */
  readonly goodBytes: number;
  /** Whether anything after `goodBytes` was ignored. */
  readonly damaged: boolean;
  /** Last modification time of the file as it was read. */
  readonly mtime: Date;
}

/**
 * Reads every intact record of a session file; `undefined` when the file does not exist. Bytes and
 * mtime come from one open descriptor, so a file that another agent process deletes meanwhile is
 * either read whole or not found, never half-found (a `stat` after the read would throw ENOENT).
 */
export function readSessionFile(path: string): SessionFileContents | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let bytes: Buffer;
  let mtime: Date;
  try {
    bytes = readFileSync(fd);
    mtime = fstatSync(fd).mtime;
  } finally {
    closeSync(fd);
  }
  const records: SessionRecord[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    if (end < 0) break;
    const record = decodeRecordLine(bytes.toString("utf8", offset, end));
    if (!record) break;
    records.push(record);
    offset = end + 1;
  }
  return { records, goodBytes: offset, damaged: offset < bytes.length, mtime };
}

/** Cuts a damaged tail off a session file so that new records start on a clean line; a file deleted meanwhile is left alone. */
export function truncateSessionFile(path: string, goodBytes: number): void {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    ftruncateSync(fd, goodBytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends records to a session file in one write and flushes them to disk (fdatasync) before
 * returning: the caller answers the Client only after this. Synchronous on purpose, so no other
 * work of this process interleaves between the write and the flush.
 */
export function appendRecordsDurably(path: string, records: readonly SessionRecord[]): void {
  const fd = openSync(path, "a");
  try {
    writeSync(fd, records.map(encodeRecordLine).join(""));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates a new session file holding `records`, flushed, and flushes its folder so the file name is durable too. */
export function createSessionFileDurably(path: string, dir: string, records: readonly SessionRecord[]): void {
  const fd = openSync(path, "wx");
  try {
    writeSync(fd, records.map(encodeRecordLine).join(""));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dirFd = openSync(dir, "r");
  try {
    fsyncSync(dirFd);
  } catch {
    // Some platforms (Windows) cannot fsync a folder; the file itself is flushed.
  } finally {
    closeSync(dirFd);
  }
}
