import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { CONFORMANCE_CASES } from "./case-catalogue.js";
import { REQUIREMENTS, requirement } from "./requirement-catalogue.js";

/** The RFD text, where the team keeps it (outside the repository; the check is skipped without it). */
const RFD_FILE = "/work/shared/spec/rfd-v2-idempotency-keys.txt";
const DOCS = readFileSync(new URL("../../docs/conformance.md", import.meta.url), "utf8");

/** Text with the RFD file's line breaks and code spans flattened, for "is this sentence in it". */
function flat(text: string): string {
  return text.replace(/\s+/g, "");
}

describe("requirement catalogue", () => {
  test("ids are unique and stable-looking; every case's requirements exist, and every requirement has a case", () => {
    const ids = REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^idem\.[a-z-]+\.[a-z-]+$/);
    for (const c of CONFORMANCE_CASES) {
      expect(c.requirements.length).toBeGreaterThan(0);
      for (const id of c.requirements) expect(requirement(id).id).toBe(id);
      // A case decides the exit status exactly when its main requirement is mandatory.
      expect(c.required).toBe(requirement(c.requirements[0] as string).tier === "MANDATORY");
    }
    for (const id of ids) expect(CONFORMANCE_CASES.some((c) => c.requirements.includes(id))).toBe(true);
  });

  test("MUST sentences are MANDATORY, SHOULD-only sentences ADVISORY", () => {
    for (const r of REQUIREMENTS) {
      if (/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("MANDATORY");
      if (/\bSHOULD\b/.test(r.text) && !/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("ADVISORY");
    }
  });

  test.runIf(existsSync(RFD_FILE))("each requirement quotes the RFD verbatim", () => {
    const rfd = flat(readFileSync(RFD_FILE, "utf8"));
    for (const r of REQUIREMENTS) expect(rfd, r.id).toContain(flat(r.text));
  });

  test("docs/conformance.md lists every requirement with its tier, cases and RFD sentence, and nothing else", () => {
    // Cells may be padded (the formatter aligns the table's columns).
    const rows = [...DOCS.matchAll(/^\| `(idem\.[^`]+)` +\| ([A-Z]+) +\| ([^|]+)\| (.+?) *\|$/gm)].map(
      (m) => ({
        id: m[1],
        tier: m[2],
        cases: (m[3] as string).trim(),
        text: m[4],
      }),
    );
    expect(rows).toEqual(
      REQUIREMENTS.map((r) => ({
        id: r.id,
        tier: r.tier,
        cases: CONFORMANCE_CASES.filter((c) => c.requirements.includes(r.id))
          .map((c) => `\`${c.name}\``)
          .join(", "),
        text: r.text,
      })),
    );
  });
});
