/** Fails a test on console errors, warnings, uncaught exceptions and CSP violations of its page. */
import type { Page } from "@playwright/test";

/** Starts collecting problems on `page`; returns the list to assert empty at the end. */
export function guardConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}
