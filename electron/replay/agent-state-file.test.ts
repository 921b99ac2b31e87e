import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadStartPosition, RESPAWN_WINDOW_MS, saveState } from "./agent-state-file.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-agent-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("replay --as agent state file", () => {
  const position = { used: [0, 1, 2], keys: [["live", "K"]] as [string, string | null][] };

  it("continues only after a recorded exit of the same trace, within the respawn window", () => {
    const path = join(dir, "a.json");
    expect(loadStartPosition(path, "abc", 0).position).toBeNull();
    saveState(path, { version: 1, sha256: "abc", position, respawn: true, savedAt: 1000 });
    expect(loadStartPosition(path, "abc", 2000).position).toEqual(position);
    expect(loadStartPosition(path, "other", 2000)).toMatchObject({
      position: null,
      why: expect.stringContaining("another trace"),
    });
    expect(loadStartPosition(path, "abc", 1000 + RESPAWN_WINDOW_MS + 1).position).toBeNull();
    saveState(path, { version: 1, sha256: "abc", position, respawn: false, savedAt: 1000 });
    expect(loadStartPosition(path, "abc", 2000)).toMatchObject({
      position: null,
      why: expect.stringContaining("ended normally"),
    });
  });

  it("a damaged file is ignored with a reason, never thrown", () => {
    const path = join(dir, "b.json");
    writeFileSync(path, "{not json");
    expect(loadStartPosition(path, "abc", 0)).toMatchObject({
      position: null,
      why: expect.stringContaining("not JSON"),
    });
    writeFileSync(
      path,
      JSON.stringify({
        sha256: "abc",
        respawn: true,
        savedAt: 0,
        position: {
          used: ["x", 3],
          keys: [
            [1, 2],
            ["k", null],
          ],
        },
      }),
    );
    expect(loadStartPosition(path, "abc", 10).position).toEqual({ used: [3], keys: [["k", null]] });
    writeFileSync(path, "null");
    expect(loadStartPosition(path, "abc", 0).position).toBeNull();
  });
});
