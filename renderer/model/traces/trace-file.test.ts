import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { exportTrace } from "./trace-export.js";
import { decodeLines, LineSplitter, splitTraceText } from "./trace-file.js";

describe("trace files in the renderer", () => {
  it("splits the header from record lines and reports unreadable lines by number", () => {
    const text = `${new TraceScript().open(1).prompt(1, 1, "s", "secret words", "K").jsonl()}not json\n`;
    const split = splitTraceText(text);
    if (!split.ok) throw new Error(split.problem);
    const { records, problems } = decodeLines(split.lines, 0, split.lines.length);
    expect(records.map((r) => r.type)).toEqual(["conn-open", "frame"]);
    expect(problems).toEqual([expect.stringMatching(/^line 4: not JSON/)]);
  });

  it("refuses text that is not a trace", () => {
    expect(splitTraceText("")).toEqual({ ok: false, problem: "the file is empty" });
    expect(splitTraceText('{"hello":1}\n')).toMatchObject({ ok: false });
  });

  it("exports redacted by default and the full trace only when asked", () => {
    const sc = new TraceScript().open(1).prompt(1, 1, "s", "secret words", "K").stderr(1, "token=abc");
    const redacted = exportTrace("my trace.jsonl", sc.header(), sc.records, false);
    expect(redacted.fileName).toBe("my_trace-redacted.jsonl");
    expect(redacted.text).not.toContain("secret words");
    expect(redacted.text).not.toContain("token=abc");
    expect(redacted.text).toContain("session/prompt");
    const full = exportTrace("t", sc.header(), sc.records, true);
    expect(full.fileName).toBe("t-full.jsonl");
    expect(full.text).toBe(sc.jsonl());
  });
});

describe("LineSplitter", () => {
  it("gives the lines of the whole text however the text is cut into chunks", () => {
    const text = 'one\n{"a":1}\n\nthree ü\n\n€ four\nlast without a break';
    const whole = text.split("\n");
    // every way of cutting it in two and in three pieces, and one character at a time
    const cuts: number[][] = [];
    for (let i = 0; i <= text.length; i++) {
      cuts.push([i]);
      for (let j = i; j <= text.length; j += 3) cuts.push([i, j]);
    }
    cuts.push([...text].map((_, i) => i));
    for (const at of cuts) {
      const splitter = new LineSplitter();
      const lines: string[] = [];
      let from = 0;
      for (const to of [...at, text.length]) {
        lines.push(...splitter.push(text.slice(from, to)));
        from = to;
      }
      lines.push(splitter.end());
      expect(lines, `cut at ${at.join(", ")}`).toEqual(whole);
    }
  });

  it("ends with an empty line when the text ends with a break, and holds nothing after end()", () => {
    const splitter = new LineSplitter();
    expect(splitter.push("a\nb")).toEqual(["a"]);
    expect(splitter.push("c\n")).toEqual(["bc"]);
    expect(splitter.end()).toBe("");
    expect(splitter.push("d")).toEqual([]);
    expect(splitter.end()).toBe("d");
  });
});
