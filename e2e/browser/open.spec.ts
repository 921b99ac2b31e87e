import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { guardConsole } from "../harness/console-guard.js";
import { type ServeProcess, startServe } from "../harness/serve-process.js";

// `serve --open` with a stand-in for xdg-open that only writes down the path it was handed; the
// test then plays the browser and opens that path in Chromium.
let bin: string;
let hub: ServeProcess;
test.beforeAll(async () => {
  test.skip(process.platform !== "linux", "the stand-in opener is xdg-open");
  bin = mkdtempSync(join(tmpdir(), "acp-ri-opener-"));
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > "$FAKE_OPENER_LOG"\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  hub = await startServe(15_000, ["--open"], () => ({
    PATH: `${bin}:${process.env.PATH}`,
    FAKE_OPENER_LOG: join(bin, "opened"),
  }));
});
test.afterAll(async () => {
  await hub?.stop();
  rmSync(bin, { recursive: true, force: true });
});

test("serve --open hands the browser a local page that lands on the connected UI, token out of the address bar", async ({
  page,
}) => {
  const problems = guardConsole(page);
  const log = join(bin, "opened");
  await expect.poll(() => existsSync(log)).toBe(true);
  const opened = readFileSync(log, "utf8");
  expect(opened).not.toContain(hub.token);
  await page.goto(pathToFileURL(opened).href);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
  expect(page.url()).toBe(hub.bareUrl);
  expect(problems).toEqual([]);
});
