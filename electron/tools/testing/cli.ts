import { inject } from "vitest";

/** Path of the CLI bundle built for this test run (see global-setup.ts); spawn it with `process.execPath`. */
export function cliPath(): string {
  return inject("cliPath");
}
