import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../analyzer/analyzer.js";
import { TraceScript } from "../analyzer/testing/trace-script.js";
import { isUserMessageUpdate, USER_MESSAGE_UPDATES } from "./user-message-updates.js";

const schemaDir = join(import.meta.dirname, "../../node_modules/@agentclientprotocol/sdk/schema");

interface Variant {
  readonly tag: string;
  readonly ref: string;
  readonly description: string;
}

/** The tagged `SessionUpdate` variants of one v2 schema file. */
function variants(file: string): { variants: Variant[]; defs: Record<string, { required?: string[] }> } {
  const schema = JSON.parse(readFileSync(join(schemaDir, file), "utf8")) as {
    $defs: Record<string, { anyOf?: unknown[]; required?: string[] }>;
  };
  const out: Variant[] = [];
  for (const v of (schema.$defs.SessionUpdate?.anyOf ?? []) as Array<{
    properties?: { sessionUpdate?: { const?: string } };
    allOf?: Array<{ $ref?: string }>;
    description?: string;
  }>) {
    const tag = v.properties?.sessionUpdate?.const;
    if (tag === undefined) continue; // the custom/future catch-all
    out.push({
      tag,
      ref: v.allOf?.[0]?.$ref?.replace("#/$defs/", "") ?? "",
      description: v.description ?? "",
    });
  }
  return { variants: out, defs: schema.$defs };
}

describe("user message update shapes", () => {
  for (const file of ["v2/schema.json", "v2/schema.unstable.json"]) {
    it(`are exactly the SessionUpdate variants of ${file} that describe the user's message`, () => {
      const { variants: all, defs } = variants(file);
      expect(all.length).toBeGreaterThan(10);
      const user = all.filter((v) => /\buser'?s? message\b/i.test(v.description)).map((v) => v.tag);
      expect(user.sort()).toEqual([...USER_MESSAGE_UPDATES].sort());
      // Each carries the messageId a session/prompt answer names.
      for (const tag of USER_MESSAGE_UPDATES) {
        const variant = all.find((v) => v.tag === tag);
        expect(defs[variant?.ref ?? ""]?.required ?? []).toContain("messageId");
      }
    });
  }

  it("isUserMessageUpdate accepts the listed shapes and nothing else", () => {
    for (const tag of USER_MESSAGE_UPDATES) expect(isUserMessageUpdate(tag)).toBe(true);
    for (const other of ["agent_message_chunk", "session_message", "state_update", undefined, 1])
      expect(isUserMessageUpdate(other)).toBe(false);
  });

  for (const shape of USER_MESSAGE_UPDATES) {
    it(`the analyzer attributes a lost attempt's insert announced by ${shape}`, () => {
      const update =
        shape === "user_message"
          ? { sessionUpdate: shape, messageId: "m1", content: [{ type: "text", text: "hi" }] }
          : { sessionUpdate: shape, messageId: "m1", content: { type: "text", text: "hi" } };
      const t = new TraceScript()
        .open(1)
        .prompt(1, 7, "s1", "hi", "k-1")
        .notify(1, "agent->client", "session/update", { sessionId: "s1", update })
        .close(1)
        .open(2)
        .prompt(2, 1, "s1", "hi", "k-1")
        .inserted(2, 1, "m1");
      const a = new Analyzer();
      a.ingestHeader(t.header());
      for (const r of t.records) a.ingest(r);
      const [submission] = a.model().submissions;
      expect(submission?.messageIds).toEqual(["m1"]);
      expect(submission?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    });
  }
});
