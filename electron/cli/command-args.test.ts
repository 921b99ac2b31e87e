import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { CliError } from "./command.js";
import { parseCommandArgs, splitAtCommand, usageError } from "./command-args.js";

const OPTIONS = {
  output: { type: "string", short: "o" },
  full: { type: "boolean" },
  fault: { type: "string", multiple: true },
} as const;

function words(args: string[]): string {
  try {
    parseCommandArgs("cmd", "", args, OPTIONS, { output: "a file path" });
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return (err as CliError).message;
  }
  return "no error";
}

describe("parseCommandArgs", () => {
  it("parses options and positionals with parseArgs", () => {
    const { values, positionals } = parseCommandArgs(
      "cmd",
      "",
      ["a", "-o", "f", "--full", "--fault=x", "--fault", "y"],
      OPTIONS,
    );
    expect(values).toEqual({ output: "f", full: true, fault: ["x", "y"] });
    expect(positionals).toEqual(["a"]);
  });

  it("says every mistake in the same words, naming the form the user typed", () => {
    expect(words(["--frobnicate"])).toBe("cmd: unknown option --frobnicate");
    expect(words(["a", "-o"])).toBe("cmd: -o needs a file path");
    expect(words(["--output"])).toBe("cmd: --output needs a file path");
    expect(words(["--output="])).toBe("cmd: --output needs a file path");
    expect(words(["--fault"])).toBe("cmd: --fault needs a value");
    expect(words(["--full=yes"])).toBe("cmd: --full takes no value");
  });

  it("adds the command's help after the words", () => {
    expect(() => parseCommandArgs("cmd", "Usage: cmd", ["--x"], OPTIONS)).toThrow(
      "cmd: unknown option --x\n\nUsage: cmd",
    );
  });
});

describe("usageError", () => {
  it("words a parseArgs error of a command that calls parseArgs itself the same way", () => {
    const error = (args: string[]) => {
      try {
        parseArgs({ args, options: { hub: { type: "string" }, json: { type: "boolean" } }, strict: true });
      } catch (err) {
        return usageError("taps", err, args, "Usage: taps").message;
      }
      return "no error";
    };
    expect(error(["--bogus"])).toBe("taps: unknown option --bogus\n\nUsage: taps");
    expect(error(["--hub"])).toBe("taps: --hub needs a value\n\nUsage: taps");
    expect(error(["stray"])).toBe("taps: unexpected argument stray\n\nUsage: taps");
  });
});

describe("splitAtCommand", () => {
  it("cuts at -- or at the first word that is no option's value", () => {
    expect(splitAtCommand(["--full", "-o", "f", "--", "agent", "--full"], OPTIONS)).toEqual({
      own: ["--full", "-o", "f"],
      command: ["agent", "--full"],
    });
    expect(splitAtCommand(["--output", "f", "agent", "-x"], OPTIONS)).toEqual({
      own: ["--output", "f"],
      command: ["agent", "-x"],
    });
    expect(splitAtCommand(["--output=f", "--full"], OPTIONS)).toEqual({
      own: ["--output=f", "--full"],
      command: [],
    });
  });
});
