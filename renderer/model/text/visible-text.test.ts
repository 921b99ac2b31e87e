import { describe, expect, it } from "vitest";
import { visibleText } from "./visible-text.js";

describe("visibleText", () => {
  it("shows bidirectional overrides, isolates and marks as markers, so nothing displays reversed", () => {
    expect(visibleText("session/\u202Etpmorp")).toBe("session/⟦U+202E⟧tpmorp");
    const every = [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
    ];
    for (const code of every) {
      const shown = visibleText(`a${String.fromCharCode(code)}b`);
      expect(shown).toBe(`a⟦U+${code.toString(16).toUpperCase().padStart(4, "0")}⟧b`);
    }
  });

  it("shows C1 controls, DEL and C0 controls but keeps tab and newline", () => {
    expect(visibleText("\u0085\u009b31m\u007f")).toBe("⟦U+0085⟧⟦U+009B⟧31m⟦U+007F⟧");
    expect(visibleText("\u001b[2J\u0000\r")).toBe("⟦U+001B⟧[2J⟦U+0000⟧⟦U+000D⟧");
    expect(visibleText("a\tb\nc")).toBe("a\tb\nc");
    expect(visibleText("\u2028\u2029")).toBe("⟦U+2028⟧⟦U+2029⟧");
  });

  it("leaves ordinary text alone, right-to-left letters included", () => {
    for (const text of ["", "session/prompt", "שלום עולם", "مرحبا", "emoji 🎉", "K-1 ⟦not a marker⟧"])
      expect(visibleText(text)).toBe(text);
  });
});

describe("wire text in the UI's surfaces", () => {
  const RLO = "\u202E";
  it("the Timeline's cells and tooltips (cellText) show a right-to-left override as a marker", async () => {
    const { cellText } = await import("../../views/timeline/cell-text.js");
    const { NO_FACTS } = await import("../../views/timeline/row-facts.js");
    type Row = Parameters<typeof cellText>[1];
    const request = {
      kind: "request",
      depth: 0,
      row: { method: `session/${RLO}tpmorp`, sessionId: `s${RLO}1`, retryClass: "x", verdicts: [] },
    } as unknown as Row;
    expect(cellText("what", request, NO_FACTS)).toBe("session/⟦U+202E⟧tpmorp");
    expect(cellText("session", request, NO_FACTS)).toBe("s⟦U+202E⟧1");
    const submission = {
      kind: "submission",
      depth: 0,
      row: { key: `K${RLO}1`, promptPreview: `hi ${RLO}olleh`, verdicts: [], attempts: [] },
    } as unknown as Row;
    expect(cellText("key", submission, NO_FACTS)).toBe("K⟦U+202E⟧1");
    expect(cellText("detail", submission, NO_FACTS)).toBe("hi ⟦U+202E⟧olleh");
  });

  it("the sequence diagram's labels (fitText) and the trace list's names (traceLabel) too", async () => {
    const { fitText } = await import("../../views/sequence/lanes.js");
    const { traceLabel } = await import("../traces/trace-catalog.js");
    expect(fitText(`a${RLO}b`, 1_000, 14)).toBe("a⟦U+202E⟧b");
    const header = { format: "acp-retry-inspector-trace", version: 1, name: `tap${RLO}x` };
    expect(traceLabel("t1", header as never)).toBe("tap⟦U+202E⟧x");
  });
});
