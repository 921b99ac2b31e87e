// Renders assets/icon.svg to assets/icon.png (512x512, what electron-builder needs for Linux and
// converts for macOS/Windows) with the system Chromium. Usage: node electron/tools/build/render-icon.mjs
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const svg = readFileSync(join(root, "assets", "icon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 512, height: 512 } });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:512px;height:512px}</style>${svg}`,
  );
  await page.locator("svg").screenshot({ path: join(root, "assets", "icon.png"), omitBackground: true });
  console.log("wrote assets/icon.png");
} finally {
  await browser.close();
}
