/** Locators for the toolbar's trace picker (`renderer/app/toolbar/TracePicker.tsx`), shared by the browser specs. */
import { expect, type Locator, type Page } from "@playwright/test";

/** The button naming the shown trace; its accessible name is `Shown trace: <name>, <status>, started <time>`. */
export function shownTrace(page: Page): Locator {
  return page.getByRole("button", { name: /^Shown trace:/ });
}

/** Opens the picker (if closed) and returns its list of traces. */
export async function openTraceList(page: Page): Promise<Locator> {
  const button = shownTrace(page);
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  const list = page.getByRole("listbox", { name: "Traces" });
  await expect(list).toBeVisible();
  return list;
}

/** Picks the trace whose entry shows `name`. */
export async function pickTrace(page: Page, name: string): Promise<void> {
  const list = await openTraceList(page);
  await list.getByRole("option").filter({ hasText: name }).click();
  await expect(list).toBeHidden();
}
