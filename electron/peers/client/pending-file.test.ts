import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PendingSubmissionFile } from "./pending-file.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-pending-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const snapshot = { v: 1, sessionId: "s-1", nextIndex: 1, submissions: [] } as never;

describe("PendingSubmissionFile", () => {
  it("keeps prompts private: the file 0600, a folder it creates 0700", () => {
    const file = new PendingSubmissionFile(join(dir, "new", "pending.json"));
    file.save(snapshot);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "new")).mode & 0o777).toBe(0o700);
    expect(file.load()).toEqual(snapshot);
  });

  it("never writes through a symbolic link left where its temp file goes", () => {
    const target = join(dir, "precious.txt");
    writeFileSync(target, "precious\n");
    const file = new PendingSubmissionFile(join(dir, "pending.json"));
    symlinkSync(target, `${file.path}.tmp`);
    file.save(snapshot);
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    expect(file.load()).toEqual(snapshot);
  });
});
