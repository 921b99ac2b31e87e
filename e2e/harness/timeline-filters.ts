/** The Timeline's filter bar as the browser specs drive it: its "Filters" menu of field shortcuts. */
import type { Locator, Page } from "@playwright/test";

/** The Timeline's filter bar (one row: search, "Filters", verdict chips, Clear). */
export function timelineFilters(page: Page): Locator {
  return page.getByRole("search", { name: "Timeline filters" });
}

/** The field shortcut named `label` (Method, Session, Key, Outcome, Direction, Verdict), its menu opened first. */
export async function filterShortcut(page: Page, label: string): Promise<Locator> {
  const bar = timelineFilters(page);
  const button = bar.getByRole("button", { name: /^Filters/ });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  const role = label === "Session" || label === "Key" ? "textbox" : "combobox";
  return bar.getByRole("group", { name: "Filter by field" }).getByRole(role, { name: label, exact: true });
}
