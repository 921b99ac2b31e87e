import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TraceScript } from "../../analyzer/testing/trace-script.js";
import { convertToTrace } from "./convert.js";
import { detectFormat } from "./detect.js";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, "../../../e2e/fixtures/imports", name), "utf8");

describe("detectFormat", () => {
  it.each([
    ["zed-copy-all.json", "zed-log"],
    ["sacp-trace.jsons", "sacp-trace"],
    ["acp-inspector.jsonl", "acp-inspector-jsonl"],
    ["chrome-websocket.har", "har"],
    ["streamable-http.har", "har"],
  ])("knows %s as %s from its content, whole or its first 200 characters", (file, format) => {
    const text = fixture(file);
    expect(detectFormat(text)).toEqual({ format });
    expect(detectFormat(text.slice(0, 200))).toEqual({ format });
  });

  it("knows our own trace, and converting it keeps every record", () => {
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "hi", "k-1").inserted(1, 1, "m1");
    expect(detectFormat(sc.jsonl())).toEqual({ format: "acp-retry-inspector-trace" });
    const r = convertToTrace(sc.jsonl());
    expect("error" in r ? r.error : r.records).toEqual(sc.records);
  });

  it("does not go by the name: a HAR minified on one line, and a byte-order mark", () => {
    expect(detectFormat('{"log":{"version":"1.2","entries":[]}}')).toEqual({ format: "har" });
    expect(detectFormat(`\uFEFF${fixture("zed-copy-all.json")}`)).toEqual({ format: "zed-log" });
  });

  it.each([
    ["", /empty/],
    ["   \n\n", /empty/],
    ["hello world\n", /not JSON; expected an acp-retry-inspector trace, a Zed ACP log/],
    ["[1, 2, 3]", /a JSON array that is not a Zed ACP log/],
    ['{"hello":"world"}\n', /no known format/],
    ['{"format":"other-tool","version":1}\n', /"other-tool" header/],
    ['{\n  "not": "a har"\n}', /not a JSON object of a known format/],
  ])("refuses junk with a clear error: %j", (text, message) => {
    const d = detectFormat(text);
    expect("error" in d ? d.error : d.format).toMatch(message);
    const r = convertToTrace(text);
    expect("error" in r ? r.error : "converted").toMatch(message);
  });

  it("a file that looks like a format but does not parse is an error, not a throw", () => {
    const r = convertToTrace('[\n  {"_direction": "outgoing", "_type": "request"');
    expect(r).toMatchObject({ format: "zed-log", error: expect.stringMatching(/not valid JSON/) });
  });
});
