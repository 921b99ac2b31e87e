/**
 * Launch settings for the system Chromium (Debian's /usr/bin/chromium): Playwright's own browser
 * download is not available here, so every browser test and the UI bench use these.
 */
import { type Browser, chromium, type LaunchOptions } from "@playwright/test";

/** Path of the Chromium to drive: `CHROMIUM_PATH`, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launch options for a quiet, headless, sandbox-free (containers) Chromium. */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: chromiumPath,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/** Launches Chromium outside Playwright Test (benchmarks, scripts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}
