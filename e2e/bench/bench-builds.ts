/**
 * The builds `npm run bench:ui` measures: this checkout's, and with `BENCH_UI_BASELINE=/path` a
 * baseline checkout's too (built there with `npm run build`), run by the same steps in the same run
 * so each figure can be given as a ratio new/baseline. The baseline's `serve` and renderer are its
 * own (`dist/cli.js`, `dist/renderer`), and so is the hub link that streams the live records: the
 * tap protocol may differ between the two (a newer link answers `fault-rules` with a `fault-ack` an
 * older hub refuses), so the baseline's `electron/tap/hub-link/hub-link.ts` is bundled with esbuild
 * into a temp folder and loaded from there.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { createHubLink } from "../../electron/tap/hub-link/hub-link.js";

/** One build the bench runs its steps against. */
export interface BenchBuild {
  readonly name: "new" | "baseline";
  /** The checkout whose build `serve` runs; undefined: this one. */
  readonly checkout: string | undefined;
  /** That checkout's hub link (the live step's producer). */
  readonly createHubLink: typeof createHubLink;
}

/** The checkout named by `BENCH_UI_BASELINE`, if any. */
export const BASELINE_CHECKOUT = process.env.BENCH_UI_BASELINE
  ? resolve(process.env.BENCH_UI_BASELINE)
  : undefined;

async function baselineHubLink(checkout: string): Promise<typeof createHubLink> {
  const entry = join(checkout, "electron", "tap", "hub-link", "hub-link.ts");
  if (!existsSync(join(checkout, "dist", "cli.js")) || !existsSync(join(checkout, "dist", "renderer")))
    throw new Error(`BENCH_UI_BASELINE=${checkout} has no build: run npm run build there first`);
  if (!existsSync(entry)) throw new Error(`BENCH_UI_BASELINE=${checkout} has no ${entry}`);
  const outfile = join(mkdtempSync(join(tmpdir(), "acp-ri-bench-baseline-")), "hub-link.cjs");
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    // ws's optional native helpers: it falls back to JavaScript without them
    external: ["bufferutil", "utf-8-validate"],
    logLevel: "warning",
  });
  const mod = createRequire(import.meta.url)(outfile) as { createHubLink?: typeof createHubLink };
  if (typeof mod.createHubLink !== "function")
    throw new Error(`the baseline's ${entry} exports no createHubLink`);
  return mod.createHubLink;
}

/** This checkout's build, then the baseline's when `BENCH_UI_BASELINE` names one. */
export async function benchBuilds(): Promise<BenchBuild[]> {
  const builds: BenchBuild[] = [{ name: "new", checkout: undefined, createHubLink }];
  if (BASELINE_CHECKOUT)
    builds.push({
      name: "baseline",
      checkout: BASELINE_CHECKOUT,
      createHubLink: await baselineHubLink(BASELINE_CHECKOUT),
    });
  return builds;
}
