/**
 * The page setup the demo's browser specs share: a `serve --demo` (and, where a spec asks, a plain
 * `serve` with no trace) started before the spec's tests and stopped after them, skipped with a
 * reason on a build whose proxy has no `--listen`; and the steps to get a scenario played.
 */
import { execFileSync } from "node:child_process";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { cliPath } from "./build-once.js";
import { type ServeProcess, startServe } from "./serve-process.js";

/** True when this build's proxy takes `--listen`, which the demo runs on. */
export function proxyListens(): boolean {
  return execFileSync(process.execPath, [cliPath, "proxy", "--help"], { encoding: "utf8" }).includes(
    "--listen",
  );
}

/** The hubs of a spec, set by `startDemoHubs` before its tests run. */
export interface DemoHubs {
  /** `serve --demo` with short turns. */
  readonly demo: ServeProcess;
  /** A plain `serve` with no trace (only when asked for). */
  readonly plain: ServeProcess;
}

/**
 * Registers the spec's beforeAll/afterAll: starts the demo hub (and a plain one with `plain`),
 * stops them after the spec. Read the hubs from the returned object inside tests.
 */
export function startDemoHubs(options: { readonly plain?: boolean } = {}): DemoHubs {
  const hubs: { demo?: ServeProcess; plain?: ServeProcess } = {};
  test.beforeAll(async () => {
    test.skip(!proxyListens(), "this build's proxy has no --listen, which the demo runs on");
    hubs.demo = await startServe(30_000, ["--demo", "--demo-turn-ms", "200", "--demo-timeout-ms", "2500"]);
    if (options.plain) hubs.plain = await startServe();
  });
  test.afterAll(async () => {
    await hubs.demo?.stop();
    await hubs.plain?.stop();
  });
  const need = (hub: ServeProcess | undefined, name: string) => {
    if (!hub)
      throw new Error(
        `the ${name} hub is not started (startDemoHubs${name === "plain" ? "({ plain: true })" : ""})`,
      );
    return hub;
  };
  return {
    get demo() {
      return need(hubs.demo, "demo");
    },
    get plain() {
      return need(hubs.plain, "plain");
    },
  };
}

/** The demo hub's link, with `?present` (a query flag beside the token's fragment) when asked. */
export function demoUrl(hub: ServeProcess, present = false): string {
  const u = new URL(hub.url);
  if (present) u.search = "?present";
  return u.toString();
}

/** Waits until the demo says it is ready to play. */
export async function expectDemoReady(page: Page): Promise<void> {
  await expect(page.getByRole("status", { name: "Demo status" })).toContainText("Demo ready", {
    timeout: 20_000,
  });
}

/** Plays a scenario with no pause between steps and resolves with its caption once all steps ran. */
export async function playScenario(page: Page, title: string): Promise<Locator> {
  await page.getByLabel("Speed").selectOption({ label: "No pause" });
  await page.getByRole("button", { name: `Play ${title}` }).click();
  const caption = page.getByRole("region", { name: "Scenario caption" });
  // a scenario starts on a fresh tap with a fresh agent process: on a loaded machine that takes a while
  await expect(caption).toContainText(title, { timeout: 20_000 });
  await expect(caption.getByRole("status")).toContainText("Finished: all", { timeout: 40_000 });
  return caption;
}
