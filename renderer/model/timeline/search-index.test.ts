import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { narrows } from "../../../shared/filter/match-filter.js";
import { parseFilter } from "../../../shared/filter/parse-filter.js";
import { spanOfRow } from "../../views/timeline/row-facts.js";
import { matchesFilter, type RawOf } from "../filter/timeline-filter.js";
import type { LoadedTrace } from "../traces/loaded-trace.js";
import { scriptedTrace } from "../traces/testing/scripted-trace.js";
import { SearchIndex } from "./search-index.js";
import { displayRows, topLevelOf, topRows } from "./timeline-rows.js";

const session = scriptedTrace;

const rawOfSession =
  (s: LoadedTrace): RawOf =>
  (seq) => {
    const r = s.recordBySeq(seq);
    return r?.type === "frame" ? r.raw : undefined;
  };

/** One step of a generated trace. */
type Step =
  | { op: "prompt"; conn: number; id: number; session: string; text: string; key: string | undefined }
  | { op: "inserted" | "error"; conn: number; id: number; message: string }
  | { op: "request"; conn: number; id: number; method: string; session: string }
  | { op: "result"; conn: number; id: number }
  | { op: "raw"; conn: number; text: string }
  | { op: "close" | "open"; conn: number };

const WORDS = ["alpha", "Beta", "poem", "fix", "bug", "sess-1", "KEY-a", "x"];
const word = fc.constantFrom(...WORDS);
const conn = fc.integer({ min: 1, max: 2 });
const id = fc.integer({ min: 1, max: 6 });
const sessionId = fc.constantFrom("sess-1", "sess-2", "Sess-3");
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant("prompt" as const),
    conn,
    id,
    session: sessionId,
    text: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
    key: fc.option(fc.constantFrom("KEY-a", "KEY-b", "k3"), { nil: undefined }),
  }),
  fc.record({ op: fc.constantFrom("inserted" as const, "error" as const), conn, id, message: word }),
  fc.record({
    op: fc.constant("request" as const),
    conn,
    id,
    method: fc.constantFrom("fs/read_text_file", "session/list", "initialize"),
    session: sessionId,
  }),
  fc.record({ op: fc.constant("result" as const), conn, id }),
  fc.record({ op: fc.constant("raw" as const), conn, text: word }),
  fc.record({ op: fc.constantFrom("close" as const, "open" as const), conn }),
);

function build(steps: readonly Step[]): TraceScript {
  const sc = new TraceScript().open(1).open(2);
  for (const s of steps) {
    if (s.op === "prompt") sc.prompt(s.conn, s.id, s.session, s.text, s.key);
    else if (s.op === "inserted") sc.inserted(s.conn, s.id, `m-${s.message}`);
    else if (s.op === "error") sc.error(s.conn, s.id, -32603, s.message);
    else if (s.op === "request")
      sc.request(s.conn, "agent->client", s.id, s.method, { sessionId: s.session, path: "/x" });
    else if (s.op === "result") sc.result(s.conn, "client->agent", s.id, { ok: true });
    else if (s.op === "raw") sc.raw(s.conn, "agent->client", `not json ${s.text}`);
    else if (s.op === "close") sc.close(s.conn);
    else sc.open(s.conn);
  }
  return sc;
}

/** A query term: a field term (values from the traces' pools, `*` wildcards) or free text. */
const term = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "method",
        "session",
        "key",
        "outcome",
        "verdict",
        "direction",
        "dir",
        "connection",
        "id",
        "origin",
      ),
      fc.constantFrom(
        "session/prompt",
        "session/*",
        "fs/*",
        "sess-1",
        "SESS",
        "key-a",
        "k",
        "inserted",
        "error",
        "pending",
        "single",
        "client",
        "agent",
        "1",
        "#2",
        "3",
        "peer",
        "*",
      ),
    )
    .map(([f, v]) => `${f}:${v}`),
  word,
  fc.constantFrom('"fix bug"', "json", "m-", "-32603", "poem"),
);
const query = fc
  .array(fc.tuple(fc.boolean(), term), { maxLength: 3 })
  .map((ts) => ts.map(([neg, t]) => `${neg ? "-" : ""}${t}`).join(" "));

describe("the Timeline's search index", () => {
  it("finds the rows a plain scan finds, in order, for any query (property, against matchesFilter)", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 25 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (steps, queries) => {
          const s = session(build(steps));
          const rawOf = rawOfSession(s);
          const tops = topLevelOf(topRows(s.view));
          // One index for every query in turn, so the kept last answer (typing on) is exercised too.
          const index = new SearchIndex(tops);
          for (const text of queries) {
            const f = parseFilter(text);
            const plain = tops.filter((r) => matchesFilter(r, f, rawOf));
            expect(index.filter(f, rawOf).map((r) => r.key)).toEqual(plain.map((r) => r.key));
            // and the spans it keeps for the waterfall are each shown row's own
            const facts = { timesKnown: true, tsOf: (n: number) => s.recordBySeq(n)?.ts };
            expect(index.spansOf(f, rawOf, (r) => spanOfRow(r, facts))).toEqual(
              plain.map((r) => spanOfRow(r, facts)),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("typing a query on and deleting it again, key by key, gives a plain scan's rows at every key (property)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), query, (steps, text) => {
        const s = session(build(steps));
        const rawOf = rawOfSession(s);
        const tops = topLevelOf(topRows(s.view));
        const index = new SearchIndex(tops);
        const prefixes = Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1));
        for (const t of [...prefixes, ...prefixes.reverse()]) {
          const f = parseFilter(t);
          const plain = tops.filter((r) => matchesFilter(r, f, rawOf));
          expect(index.filter(f, rawOf).map((r) => r.key)).toEqual(plain.map((r) => r.key));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("typing on narrows: each prefix's answer holds the next one's, and the index agrees with a scan", () => {
    const sc = new TraceScript()
      .open(1)
      .prompt(1, 1, "sess-A", "write a poem", "KEY-alpha")
      .inserted(1, 1, "m1")
      .prompt(1, 2, "sess-B", "fix the poetry bug", "KEY-beta")
      .error(1, 2, -32602, "bad")
      .prompt(1, 3, "sess-A", "polish", "KEY-gamma")
      .inserted(1, 3, "m3");
    const s = session(sc);
    const rawOf = rawOfSession(s);
    const tops = topLevelOf(topRows(s.view));
    const index = new SearchIndex(tops);
    const typed = ["p", "po", "poe", "poem", "poe", "po"];
    const counts = typed.map((t) => index.filter(parseFilter(t), rawOf).length);
    const plain = typed.map((t) => tops.filter((r) => matchesFilter(r, parseFilter(t), rawOf)).length);
    expect(counts).toEqual(plain);
    expect(counts).toEqual([3, 3, 2, 1, 2, 3]);
  });

  it("field terms answer from the value index: OR within a field, AND across fields, - excludes", () => {
    const sc = new TraceScript()
      .open(1)
      .prompt(1, 1, "sess-A", "one", "KEY-1")
      .inserted(1, 1, "m1")
      .prompt(1, 2, "sess-B", "two", "KEY-2")
      .error(1, 2, -32602, "bad")
      .request(1, "agent->client", 7, "fs/read_text_file", { sessionId: "sess-B", path: "/x" });
    const s = session(sc);
    const rawOf = rawOfSession(s);
    const tops = topRows(s.view);
    const keys = (q: string) =>
      displayRows(tops, parseFilter(q), new Set(), (n) => s.recordBySeq(n)).map((r) => r.key);
    const sub = (k: string) => tops.find((r) => r.kind === "submission" && r.row.key === k)?.key;
    const fs = tops.find((r) => r.kind === "request")?.key;
    expect(keys("session:sess-a session:sess-b")).toEqual([sub("KEY-1"), sub("KEY-2"), fs]);
    expect(keys("session:sess-b method:session/prompt")).toEqual([sub("KEY-2")]);
    expect(keys("-outcome:error")).toEqual([sub("KEY-1"), fs]);
    expect(keys("method:fs/* two")).toEqual([]);
    // the same answers as the plain scan
    for (const q of ["session:sess-a session:sess-b", "-outcome:error", "method:fs/*"])
      expect(keys(q)).toEqual(
        topLevelOf(tops)
          .filter((r) => matchesFilter(r, parseFilter(q), rawOf))
          .map((r) => r.key),
      );
  });
});

describe("narrows", () => {
  it("tells when a query can only pass rows another one passed", () => {
    const q = parseFilter;
    expect(narrows(q("file"), q("fil"))).toBe(true);
    expect(narrows(q("fil file"), q("fil"))).toBe(true);
    expect(narrows(q("method:a file"), q("method:a fil"))).toBe(true);
    expect(narrows(q("-x file"), q("-x"))).toBe(true);
    // a widening or a changed field term cannot be told
    expect(narrows(q("fil"), q("file"))).toBe(false);
    expect(narrows(q("method:a method:b"), q("method:a"))).toBe(false);
    expect(narrows(q("-fil"), q("-file"))).toBe(false);
    expect(narrows(q("file"), q("-x"))).toBe(false);
  });
});
