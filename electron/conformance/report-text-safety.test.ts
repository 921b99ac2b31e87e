/**
 * Wire text in the conformance report files: an agent's error text or name with a right-to-left
 * override or C1 controls must not reach a CI dashboard (JUnit XML) or a TCK report raw.
 */
import { describe, expect, test } from "vitest";
import type { ConformanceReport } from "../../shared/conformance/conformance-result.js";
import { summarize } from "../../shared/conformance/conformance-summary.js";
import { tckJson } from "../../shared/conformance/tck-json.js";
import { toTckReport } from "../../shared/conformance/tck-report.js";
import { renderJunit, xmlEscape } from "./junit-xml.js";

const RLO = "\u202E";
/** Every character that must not stay raw: DEL, C1 (NEL, CSI), bidi marks, embeddings, overrides, isolates, separators. */
const HOSTILE = `a\u007f\u0085\u009b\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d${RLO}\u2066\u2067\u2068\u2069z`;
const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const probe = { status: "v2", protocolVersion: 2, info: { name: `agent ${RLO}x`, version: "1" } } as const;
const cases = [
  {
    name: "retry-after-restart",
    status: "fail",
    required: true,
    reason: `got ${RLO}2m\u0085 ${HOSTILE}`,
    title: "t",
    rule: "rule",
    analyzerViolations: [],
    durationMs: 1,
    traceFile: `/t/${RLO}.jsonl`,
    outcomes: [],
  },
];
const report = {
  tool: "t",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 5,
  target: { kind: "stdio", command: [`agent${RLO}`], cwd: "/" },
  tracesDir: "/t",
  probe,
  cases,
  summary: summarize(probe, cases as never),
} as unknown as ConformanceReport;

describe("conformance report files keep no raw controls or bidi overrides", () => {
  test("JUnit XML writes them out as text (\\u202e, \\x85)", () => {
    expect(xmlEscape(HOSTILE)).toBe(
      "a\\x7f\\x85\\x9b\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069z",
    );
    const xml = renderJunit(report);
    expect(xml).not.toMatch(RAW);
    expect(xml).toContain("got \\u202e2m\\x85 ");
    // what XML cannot carry at all is still replaced, and markup still escaped
    expect(xmlEscape("a\u0001<b>")).toBe("a\uFFFD&lt;b&gt;");
  });

  test("the TCK report (--tck-json) writes them as \\u escapes and parses back to the same values", () => {
    const tck = toTckReport(report);
    const text = tckJson(tck);
    expect(text).not.toMatch(RAW);
    expect(text).toContain("\\u202e");
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(tck)));
    expect(JSON.stringify(tck)).toMatch(RAW);
  });
});
