/**
 * The stress client against a real agent process that forgets a session it was never prompted in:
 * the agent dies right after session/new, before it reads a prompt, and the restarted one refuses
 * session/resume with -32002. The RFD allows that; the client creates a new session instead of
 * reconnecting until it runs out (which a shrink would report as the failure).
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runStressClient } from "./stress-client.js";

const STUB = fileURLToPath(new URL("../testing/stub-agent.mjs", import.meta.url));

/** The stub agent in `forget-unprompted` mode, with a fresh marker (its first process dies after session/new). */
function forgetfulStub(): { kind: "stdio"; command: string[] } {
  const marker = join(mkdtempSync(join(tmpdir(), "acp-ri-unprompted-")), "died");
  return { kind: "stdio", command: [process.execPath, STUB, "forget-unprompted", marker] };
}

describe("a resume refused for a session never prompted", () => {
  it("the stress client falls back to session/new and delivers every prompt", async () => {
    const result = await runStressClient({
      target: forgetfulStub(),
      prompts: [
        { text: "one", key: "stress-test-p1" },
        { text: "two", key: "stress-test-p2" },
      ],
      cancels: [],
      cwd: tmpdir(),
      attemptTimeoutMs: 10_000,
      maxAttempts: 3,
      deadline: Date.now() + 30_000,
    });
    expect(result.finished).toBe(true);
    expect(result.connections).toBe(2);
    expect(result.submissions.map((s) => [s.status, s.messageId])).toEqual([
      ["answered", "m-stress-test-p1"],
      ["answered", "m-stress-test-p2"],
    ]);
  });
});
