import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_REQUIREMENTS, requirement } from "../requirement-catalogue.js";
import { CLIENT_CASES, CLIENT_RUNS, clientCaseRequired } from "./client-case-catalogue.js";

const RFD_FILE = "/work/shared/spec/rfd-v2-idempotency-keys.txt";
const DOCS = readFileSync(new URL("../../../docs/conformance.md", import.meta.url), "utf8");
const flat = (text: string) => text.replace(/\s+/g, "");

describe("the client suite's catalogue", () => {
  it("has unique client.* ids, a case for every requirement, and a known run for every case", () => {
    const ids = CLIENT_REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^client\.[a-z-]+\.[a-z-]+$/);
    for (const id of ids)
      expect(
        CLIENT_CASES.some((c) => c.requirement === id),
        id,
      ).toBe(true);
    for (const c of CLIENT_CASES) {
      expect(requirement(c.requirement).id).toBe(c.requirement);
      expect(CLIENT_RUNS.some((r) => r.name === c.run)).toBe(true);
      expect(clientCaseRequired(c)).toBe(requirement(c.requirement).tier === "MANDATORY");
    }
    expect(new Set(CLIENT_CASES.map((c) => c.name)).size).toBe(CLIENT_CASES.length);
  });

  it("MUST sentences are MANDATORY, SHOULD-only sentences ADVISORY", () => {
    for (const r of CLIENT_REQUIREMENTS) {
      if (/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("MANDATORY");
      if (/\bSHOULD\b/.test(r.text) && !/\bMUST\b/.test(r.text)) expect(r.tier, r.id).toBe("ADVISORY");
    }
  });

  it.runIf(existsSync(RFD_FILE))("quotes the RFD verbatim", () => {
    const rfd = flat(readFileSync(RFD_FILE, "utf8"));
    for (const r of CLIENT_REQUIREMENTS) expect(rfd, r.id).toContain(flat(r.text));
  });

  it("docs/conformance.md lists every client requirement with its tier, cases and RFD sentence", () => {
    const rows = [...DOCS.matchAll(/^\| `(client\.[^`]+)` +\| ([A-Z]+) +\| ([^|]+)\| (.+?) *\|$/gm)].map(
      (m) => ({
        id: m[1],
        tier: m[2],
        cases: (m[3] as string).trim(),
        text: m[4],
      }),
    );
    expect(rows).toEqual(
      CLIENT_REQUIREMENTS.map((r) => ({
        id: r.id,
        tier: r.tier,
        cases: CLIENT_CASES.filter((c) => c.requirement === r.id)
          .map((c) => `\`${c.name}\``)
          .join(", "),
        text: r.text,
      })),
    );
  });
});
