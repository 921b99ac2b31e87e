/**
 * The traces the MCP server may read: the `.jsonl` files directly in the user's traces folder
 * (regular files only, no symbolic links, no subfolders) and the files named on its command line.
 * A tool names a trace by the name `list` gives it; any other name is refused, so nothing a client
 * sends becomes a path.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** Folder traces listed at most (the newest); the rest are counted. */
export const MAX_LISTED_TRACES = 500;

/** One trace the server may read. */
export interface TraceEntry {
  /** How tools name it: the file name for the traces folder, the absolute path for a command-line file. */
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
  /** Last modified, ISO 8601. */
  readonly modified: string;
  readonly source: "traces-folder" | "command-line";
}

/** A refusal the client gets as the tool's error text (nothing else is said about the file system). */
export class TraceRequestError extends Error {}

/** The traces folder and the command-line files, listed fresh on every call. */
export class TraceCatalogue {
  private readonly files: readonly string[];

  constructor(
    private readonly folder: string,
    files: readonly string[],
  ) {
    this.files = files.map((f) => resolve(f));
  }

  /** The readable traces, command-line files first, then the folder's newest first; `more`: folder traces left off. */
  list(): { traces: TraceEntry[]; more: number } {
    const traces: TraceEntry[] = [];
    for (const path of this.files) {
      const entry = this.entry(path, path, "command-line");
      if (entry) traces.push(entry);
    }
    const folder: TraceEntry[] = [];
    let names: string[] = [];
    try {
      names = readdirSync(this.folder, { withFileTypes: true })
        .filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
        .map((d) => d.name);
    } catch {
      // No traces folder yet: nothing recorded there.
    }
    for (const name of names) {
      const entry = this.entry(name, join(this.folder, name), "traces-folder");
      if (entry) folder.push(entry);
    }
    folder.sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : 0));
    traces.push(...folder.slice(0, MAX_LISTED_TRACES));
    return { traces, more: Math.max(0, folder.length - MAX_LISTED_TRACES) };
  }

  /** The trace named `name` (as `list` names it); throws `TraceRequestError` for any other name. */
  find(name: string): TraceEntry {
    const commandLine = this.files.find((f) => f === name);
    if (commandLine !== undefined) {
      const entry = this.entry(commandLine, commandLine, "command-line");
      if (entry) return entry;
    } else if (!name.includes("/") && !name.includes("\\") && name.endsWith(".jsonl")) {
      const isListed = (() => {
        try {
          return readdirSync(this.folder, { withFileTypes: true }).some((d) => d.isFile() && d.name === name);
        } catch {
          return false;
        }
      })();
      const entry = isListed ? this.entry(name, join(this.folder, name), "traces-folder") : undefined;
      if (entry) return entry;
    }
    throw new TraceRequestError(
      `no trace named ${JSON.stringify(name.slice(0, 200))}: this server reads only the traces list_traces names`,
    );
  }

  private entry(name: string, path: string, source: TraceEntry["source"]): TraceEntry | undefined {
    try {
      const stats = statSync(path);
      if (!stats.isFile()) return undefined;
      return { name, path, bytes: stats.size, modified: stats.mtime.toISOString(), source };
    } catch {
      return undefined;
    }
  }
}
