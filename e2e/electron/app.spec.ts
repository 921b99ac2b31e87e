import { join } from "node:path";
import { _electron, expect, test } from "@playwright/test";
import { OPERATION_NAMES } from "../../shared/ops/operations.js";
import { projectRoot } from "../harness/build-once.js";
import { electronBinary } from "../harness/electron-app.js";

const binary = electronBinary();
if (!binary.available) {
  // Printed once per run so CI logs say why the Electron project did nothing.
  console.log(`[electron] skipped: ${binary.reason}`);
}

test.describe("desktop app", () => {
  test.skip(!binary.available, binary.available ? "" : `Electron binary not available: ${binary.reason}`);

  test("opens one hardened window on the renderer with the preload API", async () => {
    const testInfo = test.info();
    if (!binary.available) return;
    const app = await _electron.launch({
      executablePath: binary.path,
      args: [join(projectRoot, "dist", "app", "main.cjs"), ...(process.env.CI ? ["--no-sandbox"] : [])],
      cwd: projectRoot,
    });
    try {
      const page = await app.firstWindow();
      await expect(page).toHaveTitle("ACP Retry Inspector");
      expect(page.url()).toBe("app://inspector/index.html");
      await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");
      const exposed = await page.evaluate(() => ({
        api: Object.keys((window as unknown as { acpInspector: object }).acpInspector).sort(),
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }));
      expect(exposed).toEqual({
        // Exactly the operation table's functions, plus subscribe: taken from the table, not restated.
        api: [...OPERATION_NAMES, "subscribe"].sort(),
        require: "undefined",
        process: "undefined",
      });
      // window.open is denied and navigation away is blocked.
      expect(await page.evaluate(() => window.open("https://example.com") === null)).toBe(true);
      await page.evaluate(() => {
        location.href = "https://example.com/";
      });
      await expect(page.getByRole("tab", { name: "Timeline" })).toBeVisible();
      expect(app.windows()).toHaveLength(1);
      await page.screenshot({ path: testInfo.outputPath("electron-main-view.png") });
    } finally {
      await app.close();
    }
  });
});
