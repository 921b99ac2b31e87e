#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";

/*
 * The CLI's entry (dist/cli.js): sizes V8's heap for the command, then loads the CLI itself
 * (dist/cli-main.js, built from main.ts) by path, so the flag is set before any of the CLI's
 * modules or packages is evaluated.
 *
 * `proxy` (the tap) keeps V8's young generation at its initial size (1 MiB semi-spaces) instead of
 * letting it grow to 16 MiB ones: passing 1 GiB of 16 KiB lines, the grown young generation was
 * ~25 MiB of the tap's peak RSS, held by garbage the next scavenge would have freed (issue 36
 * item 5, docs/benchmarks.md). The other commands keep V8's defaults: `analyze` and `serve` hold
 * many live objects, for which a small young generation means more copying.
 */

/** The commands run with a young generation held at its initial size. */
const SMALL_YOUNG_GENERATION = new Set(["proxy"]);

/** V8's flag that stops the young generation from growing past its initial size. */
const YOUNG_GENERATION_FLAG = "--semi-space-growth-factor=1";

if (SMALL_YOUNG_GENERATION.has(process.argv[2] ?? "")) setFlagsFromString(YOUNG_GENERATION_FLAG);
await import(new URL("./cli-main.js", import.meta.url).href);
