import { describe, expect, test } from "vitest";
import { parseAppArgs } from "./app-args.js";
import { serveArgs } from "./launcher.js";

describe("the desktop app's arguments", () => {
  test("demo on by default; --no-demo, --agents and the agent after -- are read", () => {
    expect(parseAppArgs([])).toEqual({ demo: true, conformance: {} });
    expect(parseAppArgs(["--no-demo", "--agents", "/a.json", "--", "my-agent", "--no-demo"])).toEqual({
      demo: false,
      conformance: { agentsFile: "/a.json", argvCommand: ["my-agent", "--no-demo"] },
    });
  });

  test("the browser fallback passes the same arguments to serve, the agent command last", () => {
    const args = serveArgs("  --demo  run the demo", "/r", ["--agents", "/a.json", "--", "my-agent", "-x"]);
    expect(args).toEqual([
      "serve",
      "--demo",
      "--ui-dir",
      "/r",
      "--agents",
      "/a.json",
      "--",
      "my-agent",
      "-x",
    ]);
  });
});
