import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applySuggestion,
  formatTerm,
  quoteValue,
  singleValue,
  suggest,
  withFieldValue,
  withFreeText,
} from "./edit-filter.js";
import type { FilterField } from "./filter-fields.js";
import { nearestField } from "./filter-fields.js";
import { compileFilter } from "./match-filter.js";
import { isActive, parseFilter } from "./parse-filter.js";

const terms = (text: string) =>
  parseFilter(text).terms.map((t) => `${t.negated ? "-" : ""}${t.field ?? "text"}=${t.value}`);
const problems = (text: string) => parseFilter(text).problems.map((p) => p.message);

/** A row for the matcher: field values and a text. */
interface Row {
  readonly name: string;
  readonly values: Partial<Record<FilterField, string[]>>;
  readonly text: string;
}
const ROWS: Row[] = [
  {
    name: "prompt-dup",
    values: {
      method: ["session/prompt"],
      session: ["sess-A"],
      key: ["KEY-alpha"],
      verdict: ["duplicate-insert"],
      outcome: ["inserted", "dropped"],
      direction: ["client->agent"],
      connection: ["1", "2"],
      id: ["4", "acp-retry-inspector:retry:1"],
      origin: ["peer", "inspector"],
    },
    text: "write a poem about the sea",
  },
  {
    name: "prompt-single",
    values: {
      method: ["session/prompt"],
      session: ["sess-B"],
      key: ["KEY-beta"],
      verdict: ["single"],
      outcome: ["error"],
      direction: ["client->agent"],
      connection: ["1"],
      id: ["7"],
      origin: ["peer"],
    },
    text: "fix the bug — ünïcode straße",
  },
  {
    name: "read-file",
    values: {
      method: ["fs/read_text_file"],
      session: ["sess-B"],
      verdict: ["safe" as string],
      outcome: ["answered"],
      direction: ["agent->client"],
      connection: ["1"],
      id: ["9"],
      origin: ["peer"],
    },
    text: "/x/y.ts",
  },
  { name: "conn-close", values: { connection: ["2"] }, text: "connection #2 closed: agent exited" },
];
const names = (q: string) => {
  const f = compileFilter(parseFilter(q));
  return ROWS.filter((r) =>
    f.test(
      (field) => r.values[field] ?? [],
      () => r.text.toLowerCase(),
    ),
  ).map((r) => r.name);
};

describe("parseFilter", () => {
  it("reads fields, text, negation and quotes, with where each term is", () => {
    const q = parseFilter('method:session/prompt  key:abc -verdict:single "two words" -x');
    expect(terms(q.text)).toEqual([
      "method=session/prompt",
      "key=abc",
      "-verdict=single",
      "text=two words",
      "-text=x",
    ]);
    expect(q.problems).toEqual([]);
    expect(q.terms.map((t) => q.text.slice(t.start, t.end))).toEqual([
      "method:session/prompt",
      "key:abc",
      "-verdict:single",
      '"two words"',
      "-x",
    ]);
    expect(isActive(q)).toBe(true);
    expect(isActive(parseFilter("   "))).toBe(false);
  });

  it("takes quoted values, escaped quotes, aliases and any case of field names", () => {
    expect(terms('key:"a b" session:"x\\"y"')).toEqual(["key=a b", 'session=x"y']);
    expect(terms("CONN:#2 dir:agent Method:Initialize")).toEqual([
      "connection=#2",
      "direction=agent",
      "method=Initialize",
    ]);
    // a quote inside a word joins it; a value may hold colons
    expect(terms('ab"c d"e id:acp-retry-inspector:retry:1')).toEqual([
      "text=abc de",
      "id=acp-retry-inspector:retry:1",
    ]);
  });

  it("reads what does not look like a field name as text", () => {
    expect(terms("12:03:04 :x -:y")).toEqual(["text=12:03:04", "text=:x", "-text=:y"]);
    expect(terms('"method:x"')).toEqual(["text=method:x"]);
  });

  it("says an unknown field is not one, suggests the nearest, and searches it as text", () => {
    const q = parseFilter("verdit:single");
    expect(terms(q.text)).toEqual(["text=verdit:single"]);
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatchObject({ start: 0, end: 13 });
    expect(q.problems[0]?.message).toContain("“verdit” is not a filter field (did you mean verdict?)");
    expect(q.problems[0]?.message).toContain("searching for the text “verdit:single” instead");
    expect(q.problems[0]?.message).toContain("Fields: method, session, key, outcome, verdict, direction");
    expect(problems("colour:red")[0]).not.toContain("did you mean");
    expect(nearestField("sess")).toBe("session");
    expect(nearestField("zzzzzz")).toBeUndefined();
  });

  it("reports malformed input in words and keeps going: unterminated quotes, empty values, a lone -", () => {
    expect(terms('key:"abc')).toEqual(["key=abc"]);
    expect(problems('key:"abc')).toEqual(["missing closing quote: the value runs to the end"]);
    expect(terms('"two words')).toEqual(["text=two words"]);
    expect(problems('"two words')).toEqual(["missing closing quote: the text runs to the end"]);
    expect(terms('"')).toEqual([]);
    expect(problems('"')).toEqual([
      "missing closing quote: the text runs to the end",
      "empty quotes find nothing; ignored",
    ]);
    expect(terms('method: key:"" x')).toEqual(["text=x"]);
    expect(problems("method: key:")).toEqual([
      expect.stringMatching(/^method: needs a value .*; ignored$/),
      expect.stringMatching(/^key: needs a value .*; ignored$/),
    ]);
    expect(terms("- a -")).toEqual(["text=a"]);
    expect(problems("- a -")).toHaveLength(2);
    expect(problems("-")[0]).toContain("“-” alone negates nothing");
    expect(terms("")).toEqual([]);
    expect(terms("\\")).toEqual(["text=\\"]);
  });

  it("reports values outside a closed list and connections that are not numbers, and still applies them", () => {
    expect(problems("verdict:nope")[0]).toMatch(
      /^no verdict “nope”, so no row matches it; verdicts: single, .+ and \d+ more \(type verdict: for all of them\)$/,
    );
    expect(problems("outcome:Inserted")).toEqual([]);
    expect(problems("verdict:dup*")).toEqual([]);
    expect(problems("conn:x")[0]).toContain("is not a number");
    expect(terms("verdict:nope conn:x")).toEqual(["verdict=nope", "connection=x"]);
    expect(names("verdict:nope")).toEqual([]);
  });

  it("handles unicode text and unicode white space", () => {
    expect(terms("straße\u00a0ünï\u3000key:ключ")).toEqual(["text=straße", "text=ünï", "key=ключ"]);
    expect(names("STRAßE")).toEqual(["prompt-single"]);
    expect(names('"— ünïcode"')).toEqual(["prompt-single"]);
    expect(names("🙂")).toEqual([]);
  });
});

describe("compileFilter", () => {
  it("passes every row for an empty query", () => {
    expect(compileFilter(parseFilter("")).active).toBe(false);
    expect(names("")).toEqual(ROWS.map((r) => r.name));
  });

  it("ANDs different fields and text, ORs a field named twice, and negates each - term", () => {
    expect(names("method:session/prompt")).toEqual(["prompt-dup", "prompt-single"]);
    expect(names("method:session/prompt -verdict:single")).toEqual(["prompt-dup"]);
    expect(names("method:session/prompt session:B")).toEqual(["prompt-single"]);
    expect(names("method:session/prompt method:fs/read_text_file")).toEqual([
      "prompt-dup",
      "prompt-single",
      "read-file",
    ]);
    expect(names("-verdict:single -verdict:duplicate-insert")).toEqual(["read-file", "conn-close"]);
    expect(names("poem sea")).toEqual(["prompt-dup"]);
    expect(names("poem bug")).toEqual([]);
    expect(names("-poem")).toEqual(["prompt-single", "read-file", "conn-close"]);
  });

  it("compares methods, outcomes and verdicts whole (with * wildcards) and sessions and keys by part, ignoring case", () => {
    expect(names("method:session")).toEqual([]);
    expect(names("method:SESSION/*")).toEqual(["prompt-dup", "prompt-single"]);
    expect(names("method:*file")).toEqual(["read-file"]);
    expect(names("key:ALPHA")).toEqual(["prompt-dup"]);
    expect(names("session:sess-")).toEqual(["prompt-dup", "prompt-single", "read-file"]);
    expect(names("verdict:dup*")).toEqual(["prompt-dup"]);
    expect(names("outcome:dropped")).toEqual(["prompt-dup"]);
    expect(names("outcome:drop")).toEqual([]);
  });

  it("reads direction short forms, #n connections, ids and origins", () => {
    expect(names("direction:agent")).toEqual(["read-file"]);
    expect(names("dir:client->agent")).toEqual(["prompt-dup", "prompt-single"]);
    expect(names("conn:#2")).toEqual(["prompt-dup", "conn-close"]);
    expect(names("connection:2 -method:*")).toEqual(["conn-close"]);
    expect(names("id:acp-retry-inspector:retry:1")).toEqual(["prompt-dup"]);
    expect(names("id:9")).toEqual(["read-file"]);
    expect(names("origin:inspector")).toEqual(["prompt-dup"]);
  });

  it("a row without a value for a field fails a positive term on it and passes a negated one", () => {
    expect(names("key:a")).toEqual(["prompt-dup", "prompt-single"]);
    expect(names("-key:a")).toEqual(["read-file", "conn-close"]);
  });

  it("asks for values only of the fields it names, and for the text only when it has text", () => {
    const asked: string[] = [];
    let texts = 0;
    const f = compileFilter(parseFilter("verdict:single"));
    expect(f.fields).toEqual(new Set(["verdict"]));
    expect(f.usesText).toBe(false);
    f.test(
      (field) => {
        asked.push(field);
        return [];
      },
      () => {
        texts++;
        return "";
      },
    );
    expect(asked).toEqual(["verdict"]);
    expect(texts).toBe(0);
  });
});

describe("testTextParts", () => {
  it("answers what testText answers for the parts joined with newlines, for any parts and terms", () => {
    const piece = fc.constantFrom("a", "b", "ab", "\n", " ", "σ", "→", "");
    const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
    const term = fc.record({ value: text, negated: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.array(term, { maxLength: 3 }),
        (parts, ts) => {
          const c = compileFilter({
            text: "",
            terms: ts.map((t, i) => ({ field: null, value: t.value, negated: t.negated, start: i, end: i })),
            problems: [],
          });
          expect(c.testTextParts(parts)).toBe(c.testText(parts.join("\n")));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("editing the query text", () => {
  it("quotes values that need it", () => {
    expect(quoteValue("abc")).toBe("abc");
    expect(quoteValue("a b")).toBe('"a b"');
    expect(quoteValue('a"b')).toBe('"a\\"b"');
    expect(quoteValue("")).toBe('""');
    expect(formatTerm("verdict", "single", true)).toBe("-verdict:single");
    // a quoted value reads back as itself
    expect(parseFilter(formatTerm("key", 'x "y" \\z')).terms[0]?.value).toBe('x "y" \\z');
  });

  it("sets, replaces and clears one field, keeping the rest of the query", () => {
    expect(withFieldValue("", "method", "session/prompt")).toBe("method:session/prompt");
    expect(withFieldValue("hello method:a -method:b world", "method", "initialize")).toBe(
      "hello world method:initialize",
    );
    expect(withFieldValue("hello method:a", "method", "")).toBe("hello");
    expect(withFieldValue("x", "key", "a b")).toBe('x key:"a b"');
    expect(singleValue(parseFilter("key:abc x"), "key")).toBe("abc");
    expect(singleValue(parseFilter("key:abc key:d"), "key")).toBe("");
    expect(singleValue(parseFilter("-key:abc"), "key")).toBe("");
  });

  it("replaces the free text, keeping the field terms", () => {
    expect(withFreeText("method:a old words -verdict:single", "new")).toBe("method:a -verdict:single new");
    expect(withFreeText("old", "")).toBe("");
  });
});

describe("suggest", () => {
  it("offers field names while a term has no colon, keeping a -", () => {
    const s = suggest("me", 2);
    expect(s).toMatchObject({ from: 0, to: 2 });
    expect(s.items.map((i) => i.insert)).toEqual(["method:"]);
    expect(suggest("x -ver", 6).items.map((i) => i.insert)).toEqual(["-verdict:"]);
    expect(suggest("", 0).items.map((i) => i.insert)).toContain("connection:");
    expect(suggest("co", 2).items.map((i) => i.insert)).toEqual(["connection:"]);
    expect(suggest("zz", 2).items).toEqual([]);
  });

  it("offers closed-list and known values after a colon, those starting with the typed part first", () => {
    expect(suggest("verdict:du", 10).items.map((i) => i.insert)).toEqual([
      "verdict:duplicate-insert",
      "verdict:duplicating-resend",
      "verdict:deduplicated",
    ]);
    const known = { method: ["session/prompt", "session/new", "fs/read_text_file"], key: ["a b"] };
    expect(suggest("method:session/", 15, known).items.map((i) => i.insert)).toEqual([
      "method:session/prompt",
      "method:session/new",
    ]);
    expect(suggest("key:", 4, known).items.map((i) => i.insert)).toEqual(['key:"a b"']);
    expect(suggest("nope:x", 6, known).items).toEqual([]);
  });

  it("puts a suggestion in place of the term at the caret", () => {
    const text = "foo me bar";
    const s = suggest(text, 6);
    const item = s.items[0]!;
    expect(applySuggestion(text, s, item)).toEqual({ text: "foo method: bar", caret: 11 });
    const t2 = "verdict:si";
    const s2 = suggest(t2, t2.length);
    expect(applySuggestion(t2, s2, s2.items[0]!)).toEqual({ text: "verdict:single ", caret: 15 });
  });
});
