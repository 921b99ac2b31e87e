import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERDICTS } from "../../../shared/analyzer/verdicts.js";
import { METHOD_CATALOGUE } from "../../../shared/protocol/method-catalogue.js";

const doc = readFileSync(join(import.meta.dirname, "../../../docs/analyzer.md"), "utf8");
/** Every table row of the doc as its trimmed cells. */
const rows = doc
  .split("\n")
  .filter((l) => l.startsWith("|"))
  .map((l) =>
    l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim()),
  );

describe("docs/analyzer.md", () => {
  it("documents every verdict with its severity and cited rule", () => {
    for (const v of VERDICTS) {
      const row = rows.find((r) => r[0] === `\`${v.name}\``);
      expect(row, v.name).toBeDefined();
      expect(row?.[1]).toBe(v.severity);
      expect(row?.[3]).toContain(v.rule);
    }
  });

  it("lists every catalogued method with its retry class", () => {
    for (const e of METHOD_CATALOGUE) {
      const row = rows.find((r) => r[0] === `\`${e.method}\`` && r[1] === e.kind);
      expect(row?.[3], `${e.kind} ${e.method}`).toBe(`\`${e.retryClass}\``);
    }
  });
});
