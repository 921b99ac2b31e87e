import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResultWords, shownResult } from "./result-words.js";

const A = "78baf62e-5a1c-4c1e-9d7a-0c2f3b4d5e6f";
const B = "0887a5e1-2b3c-4d5e-8f90-a1b2c3d4e5f6";

/** The text a reader sees: the markup with its tags taken out. */
const seen = (text: string) =>
  renderToStaticMarkup(<ResultWords text={text} />)
    .replace(/<[^>]+>/g, "")
    .replaceAll("&quot;", '"');

describe("result words with shortened ids", () => {
  it("nothing but the words' own punctuation follows a shortened id", () => {
    const words = `2 inserts (${A}, ${B}); the client has messageId ${B}`;
    const expected = "2 inserts (78baf62e…, 0887a5e1…); the client has messageId 0887a5e1…";
    expect(shownResult(words)).toBe(expected);
    expect(seen(words)).toBe(expected);
    expect(seen(`inserted → messageId ${A}; answer dropped by the inspector: the client never saw it`)).toBe(
      "inserted → messageId 78baf62e…; answer dropped by the inspector: the client never saw it",
    );
  });

  it("each shortened id keeps the whole id as its tooltip; short ids show whole", () => {
    const html = renderToStaticMarkup(<ResultWords text={`inserted once → messageId ${A}`} />);
    expect(html).toBe(`inserted once → messageId <span title="${A}">78baf62e…</span>`);
    expect(seen("inserted once → messageId msg-7c4d")).toBe("inserted once → messageId msg-7c4d");
    expect(seen("pending (held)")).toBe("pending (held)");
  });
});
