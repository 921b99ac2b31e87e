import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findHubTarget, HubAddressRefused, HubUnreachable } from "./hub-client.js";
import { writeRendezvous } from "./rendezvous.js";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-target-"));
  path = join(dir, "hub.json");
  writeRendezvous(path, {
    v: 1,
    hubId: "h",
    pid: process.pid,
    port: 4567,
    token: "file-token",
    url: "http://127.0.0.1:4567/#token=file-token",
    startedAt: "x",
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("findHubTarget", () => {
  it("takes the token from the rendezvous file, or from ACP_RI_TOKEN when set", () => {
    expect(findHubTarget({}, path, {})).toEqual({ base: "http://127.0.0.1:4567", token: "file-token" });
    expect(findHubTarget({}, path, { ACP_RI_TOKEN: "env-token" }).token).toBe("env-token");
  });

  it("gives the file's token only to the hub the file names", () => {
    expect(findHubTarget({ url: "http://localhost:4567/" }, path, {})).toEqual({
      base: "http://127.0.0.1:4567",
      token: "file-token",
    });
    expect(() => findHubTarget({ url: "http://127.0.0.1:9999" }, path, {})).toThrow(HubUnreachable);
    expect(findHubTarget({ url: "http://127.0.0.1:9999" }, path, { ACP_RI_TOKEN: "e" })).toEqual({
      base: "http://127.0.0.1:9999",
      token: "e",
    });
  });

  it("refuses a --hub that carries a token, or is not a loopback hub", () => {
    for (const url of [
      "http://127.0.0.1:4567/?token=file-token",
      "http://127.0.0.1:4567/#token=file-token",
      "http://evil.example:4567/",
      "https://127.0.0.1:4567/",
      "http://127.0.0.1/",
      "not a url",
    ])
      expect(() => findHubTarget({ url }, path, { ACP_RI_TOKEN: "e" }), url).toThrow(HubAddressRefused);
    expect(() => findHubTarget({ url: "http://127.0.0.1:4567/?token=x" }, path, {})).toThrow(/ACP_RI_TOKEN/);
  });
});
