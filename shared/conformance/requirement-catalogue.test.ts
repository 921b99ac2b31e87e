import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { CONFORMANCE_CASES } from "./case-catalogue.js";
import { CLIENT_CASES, CLIENT_RUNS, clientCaseRequired } from "./client/client-case-catalogue.js";
import { CLIENT_REQUIREMENTS, REQUIREMENTS, type Requirement, requirement } from "./requirement-catalogue.js";

/** The RFD text, where the team keeps it (outside the repository; the check is skipped without it). */
const RFD_FILE = "/work/shared/spec/rfd-v2-idempotency-keys.txt";
const DOCS = readFileSync(new URL("../../docs/conformance.md", import.meta.url), "utf8");

/** Text with the RFD file's line breaks and code spans flattened, for "is this sentence in it". */
function flat(text: string): string {
  return text.replace(/\s+/g, "");
}

/** The two suites' catalogues: the agent suite's (`idem.*`) and the client suite's (`client.*`). */
const CATALOGUES = [
  {
    suite: "agent",
    prefix: "idem",
    requirements: REQUIREMENTS,
    cases: (id: string) => CONFORMANCE_CASES.filter((c) => c.requirements.includes(id)).map((c) => c.name),
  },
  {
    suite: "client",
    prefix: "client",
    requirements: CLIENT_REQUIREMENTS,
    cases: (id: string) => CLIENT_CASES.filter((c) => c.requirement === id).map((c) => c.name),
  },
] satisfies readonly {
  suite: string;
  prefix: string;
  requirements: readonly Requirement[];
  cases: (id: string) => string[];
}[];

describe.each(CATALOGUES)("the $suite suite's requirement catalogue", ({ prefix, requirements, cases }) => {
  test("ids are unique and stable-looking, and every requirement has a case", () => {
    const ids = requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${prefix}\\.[a-z-]+\\.[a-z-]+$`));
    for (const id of ids) expect(cases(id).length, id).toBeGreaterThan(0);
  });

  test("MUST sentences are MANDATORY, SHOULD-only sentences ADVISORY", () => {
    for (const r of requirements) {
      if (/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("MANDATORY");
      if (/\bSHOULD\b/.test(r.text) && !/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("ADVISORY");
    }
  });

  test.runIf(existsSync(RFD_FILE))("each requirement quotes the RFD verbatim", () => {
    const rfd = flat(readFileSync(RFD_FILE, "utf8"));
    for (const r of requirements) expect(rfd, r.id).toContain(flat(r.text));
  });

  test("docs/conformance.md lists every requirement with its tier, cases and RFD sentence, and nothing else", () => {
    // Cells may be padded (the formatter aligns the table's columns).
    const row = new RegExp(`^\\| \`(${prefix}\\.[^\`]+)\` +\\| ([A-Z]+) +\\| ([^|]+)\\| (.+?) *\\|$`, "gm");
    const rows = [...DOCS.matchAll(row)].map((m) => ({
      id: m[1],
      tier: m[2],
      cases: (m[3] as string).trim(),
      text: m[4],
    }));
    expect(rows).toEqual(
      requirements.map((r) => ({
        id: r.id,
        tier: r.tier,
        cases: cases(r.id)
          .map((c) => `\`${c}\``)
          .join(", "),
        text: r.text,
      })),
    );
  });
});

test("each agent case's requirements exist, and it decides the exit status exactly when its main one is mandatory", () => {
  for (const c of CONFORMANCE_CASES) {
    expect(c.requirements.length).toBeGreaterThan(0);
    for (const id of c.requirements) expect(requirement(id).id).toBe(id);
    expect(c.required).toBe(requirement(c.requirements[0] as string).tier === "MANDATORY");
  }
});

test("each client case has a known requirement and run, a unique name, and is required exactly when its requirement is mandatory", () => {
  for (const c of CLIENT_CASES) {
    expect(requirement(c.requirement).id).toBe(c.requirement);
    expect(CLIENT_RUNS.some((r) => r.name === c.run)).toBe(true);
    expect(clientCaseRequired(c)).toBe(requirement(c.requirement).tier === "MANDATORY");
  }
  expect(new Set(CLIENT_CASES.map((c) => c.name)).size).toBe(CLIENT_CASES.length);
});
