import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCENARIOS } from "../../shared/demo/scenarios.js";

const docs = readFileSync(new URL("../../docs/demo.md", import.meta.url), "utf8");

describe("docs/demo.md", () => {
  it("prints every scenario's captions and expectations as the player shows them", () => {
    for (const s of SCENARIOS) {
      expect(docs).toContain(`(\`${s.id}\``);
      for (const step of s.steps) {
        expect(docs).toContain(step.caption);
        expect(docs).toContain(step.expectation);
      }
    }
  });
});
