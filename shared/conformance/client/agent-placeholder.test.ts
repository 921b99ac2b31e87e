import { describe, expect, it } from "vitest";
import { hasAgentPlaceholder, shellJoin, shellQuote, substituteAgent } from "./agent-placeholder.js";

const AGENT = ["/usr/bin/node", "/opt/my tools/cli.js", "conformance-agent", "/tmp/run dir/it's"];

describe("the {agent} placeholder", () => {
  it("an argument that is exactly {agent} becomes the agent command's words", () => {
    expect(substituteAgent(["demo-client", "--prompt", "hi", "--", "{agent}"], AGENT)).toEqual([
      "demo-client",
      "--prompt",
      "hi",
      "--",
      ...AGENT,
    ]);
  });

  it("an argument that contains {agent} gets the whole command as one shell-quoted string", () => {
    const [, arg] = substituteAgent(["acpx", "--agent={agent}", "exec", "hi"], AGENT);
    expect(arg).toBe(
      "--agent=/usr/bin/node '/opt/my tools/cli.js' conformance-agent '/tmp/run dir/it'\\''s'",
    );
    expect(substituteAgent(['run "{agent}" now'], ["a b"])).toEqual([`run "'a b'" now`]);
  });

  it("quotes spaces, quotes and empty words for a POSIX shell, and leaves safe words bare", () => {
    expect(shellQuote("plain-word_1.js")).toBe("plain-word_1.js");
    expect(shellQuote("two words")).toBe("'two words'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('say "hi"')).toBe("'say \"hi\"'");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("$HOME;rm")).toBe("'$HOME;rm'");
    expect(shellJoin(["a", "b c"])).toBe("a 'b c'");
  });

  it("fills {dir} anywhere, and knows when there is no {agent}", () => {
    expect(substituteAgent(["c", "--pending", "{dir}/p.json", "{agent}"], ["x"], "/r")).toEqual([
      "c",
      "--pending",
      "/r/p.json",
      "x",
    ]);
    expect(hasAgentPlaceholder(["c", "--agent=x"])).toBe(false);
    expect(hasAgentPlaceholder(["c", "--agent={agent}"])).toBe(true);
  });
});
