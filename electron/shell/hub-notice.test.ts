import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppCore } from "./app-core.js";
import { hubNotice } from "./hub-notice.js";
import { startApp } from "./start-app.js";

let dir: string;
let core: AppCore | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-notice-"));
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("what the Electron main process prints about its hub", () => {
  it("gives the address without the token, and says the token is in the 0600 rendezvous file", async () => {
    const rendezvous = join(dir, "run", "hub.json");
    core = await startApp({ tracesDir: join(dir, "traces"), rendezvousPath: rendezvous });
    const { token, url, port } = JSON.parse(readFileSync(rendezvous, "utf8")) as Record<string, string>;
    expect(url).toBe(`http://127.0.0.1:${port}/#token=${token}`);
    const notice = hubNotice("1.2.3", core);
    expect(notice).toBe(
      `acp-retry-inspector 1.2.3: hub for browsers at http://127.0.0.1:${port}/; its link with the token is the "url" in ${rendezvous} (readable by you only)`,
    );
    expect(notice).not.toContain(token as string);
    expect(core.url).not.toContain(token as string);
  });

  it("says so when the hub is not advertised, still without the token", async () => {
    core = await startApp({ tracesDir: join(dir, "traces"), rendezvousPath: null });
    expect(core.tokenFile).toBeUndefined();
    expect(hubNotice("1.2.3", core)).toMatch(
      /hub for browsers at http:\/\/127\.0\.0\.1:\d+\/; it is not advertised/,
    );
    expect(hubNotice("1.2.3", core)).not.toContain("token=");
  });
});
