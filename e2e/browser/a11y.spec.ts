/**
 * Accessibility checks in Chromium against a real `serve --demo`: in each main state (start
 * screen, demo played in normal and presenter mode with the fault drawer open, an imported trace
 * with a row selected, the Sequence tab, light and dark) every control in Chromium's own
 * accessibility tree has a name; and the state colours have a contrast of at least 4.5:1, read
 * from the live tokens and from the badges, notices and banners as rendered.
 */
import { expect, type Page, test } from "@playwright/test";
import { expectDemoReady, playScenario, startDemoHubs } from "../harness/demo-hub.js";
import { importSessionTrace } from "../harness/traces.js";

/** Roles a user operates; each needs a name. */
const CONTROL_ROLES = new Set([
  "button",
  "checkbox",
  "combobox",
  "listbox",
  "menuitem",
  "radio",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
  "treegrid",
  "grid",
  "separator",
]);

interface AxNode {
  readonly ignored?: boolean;
  readonly role?: { readonly value?: string };
  readonly name?: { readonly value?: string };
  readonly properties?: readonly { readonly name: string; readonly value: { readonly value?: unknown } }[];
}

/** The controls of the page without a name, as Chromium computes names; and how many controls there were. */
async function unnamedControls(page: Page): Promise<{ unnamed: string[]; controls: number }> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AxNode[] };
  await cdp.detach();
  let controls = 0;
  const unnamed: string[] = [];
  for (const n of nodes) {
    const role = n.role?.value ?? "";
    if (n.ignored || !CONTROL_ROLES.has(role)) continue;
    // a separator is a control only when it can be focused (a window splitter)
    if (role === "separator" && !n.properties?.some((p) => p.name === "focusable" && p.value.value === true))
      continue;
    controls++;
    if ((n.name?.value ?? "").trim() === "") unnamed.push(role);
  }
  return { unnamed, controls };
}

const hubs = startDemoHubs({ plain: true });

test.describe.configure({ timeout: 120_000 });

for (const colorScheme of ["light", "dark"] as const) {
  test(`${colorScheme}: every control has an accessible name in each main state`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    const seen: Record<string, number> = {};
    const check = async (state: string) => {
      const { unnamed, controls } = await unnamedControls(page);
      seen[state] = controls;
      expect(unnamed, `${state}: controls without a name`).toEqual([]);
    };

    // the start screen of a hub with no trace
    await page.goto(hubs.plain.url);
    await expect(page.getByRole("heading", { name: "No frames yet" })).toBeVisible();
    await check("start screen");

    // an imported trace, a submission selected, the fault drawer open
    const grid = await importSessionTrace(page);
    await grid.getByRole("row").filter({ hasText: "write a haiku" }).first().click();
    const faults = page.getByRole("button", { name: "Faults", exact: true });
    if ((await faults.getAttribute("aria-expanded")) !== "true") await faults.click();
    await expect(page.getByRole("group", { name: "Fault injection" })).toBeVisible();
    await check("imported trace, row selected, fault drawer open");
    await page.getByRole("tab", { name: "Records" }).click();
    await check("records tab");

    // the demo, played, in normal and in presenter mode, and its Sequence tab
    await page.goto(hubs.demo.url);
    await expectDemoReady(page);
    await playScenario(page, "Lost response, then a keyed retry");
    await check("demo played");
    await page.getByRole("button", { name: "Present" }).click();
    await check("demo in presenter mode");
    await page.getByRole("tab", { name: "Sequence" }).click();
    await expect(page.getByRole("group", { name: "Frames" })).toBeVisible();
    await check("sequence tab in presenter mode");

    // every state had controls to check (a page that rendered nothing would pass vacuously)
    for (const [state, n] of Object.entries(seen)) expect(n, state).toBeGreaterThan(10);
    await context.close();
  });

  test(`${colorScheme}: state colours have a contrast of at least 4.5:1, as tokens and as rendered`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme });
    const page = await context.newPage();
    await page.goto(hubs.plain.url);
    await importSessionTrace(page);
    await expect(page.getByRole("treegrid", { name: "Timeline" })).toContainText("duplicate-insert");
    await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
    const report = await page.evaluate(() => {
      const parse = (c: string): [number, number, number, number] => {
        const probe = document.createElement("span");
        probe.style.color = c;
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color;
        probe.remove();
        const m = rgb.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
        return [m[0] ?? 0, m[1] ?? 0, m[2] ?? 0, m[3] ?? 1];
      };
      const lum = ([r, g, b]: readonly number[]) => {
        const f = (v: number) => {
          const c = v / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r ?? 0) + 0.7152 * f(g ?? 0) + 0.0722 * f(b ?? 0);
      };
      const ratio = (a: readonly number[], b: readonly number[]) => {
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
        return (hi + 0.05) / (lo + 0.05);
      };
      const root = getComputedStyle(document.documentElement);
      const token = (n: string) => parse(root.getPropertyValue(n).trim());
      const tokens = ["ok", "warn", "error", "info", "neutral"].flatMap((s) =>
        [`--state-${s}-bg`, "--surface", "--surface-raised"].map((bg) => ({
          pair: `--state-${s}-fg on ${bg}`,
          ratio: ratio(token(`--state-${s}-fg`), token(bg)),
        })),
      );
      // the background a chip is seen on: its own, or the nearest ancestor's that is not transparent
      const backdrop = (el: Element | null): readonly number[] => {
        for (let e = el; e; e = e.parentElement) {
          const bg = parse(getComputedStyle(e).backgroundColor);
          if ((bg[3] ?? 1) > 0) return bg;
        }
        return parse(getComputedStyle(document.body).backgroundColor);
      };
      // as rendered: every state chip on the page against what it is drawn on
      const rendered = [...document.querySelectorAll(".badge, .banner, .notice, .verdict-count")].map(
        (el) => ({
          pair: `${el.className}: ${el.textContent}`,
          ratio: ratio(parse(getComputedStyle(el).color), backdrop(el)),
        }),
      );
      return { tokens, rendered };
    });
    expect(report.tokens.length).toBe(15);
    expect(report.rendered.length).toBeGreaterThan(5);
    const low = [...report.tokens, ...report.rendered].filter((r) => r.ratio < 4.5);
    expect(low, "pairs under 4.5:1").toEqual([]);
    await context.close();
  });
}
