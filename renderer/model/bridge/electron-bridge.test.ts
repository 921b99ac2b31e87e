import { describe, expect, it } from "vitest";
import type { InspectorApi } from "../../../shared/ops/inspector-api.js";
import { OPERATION_NAMES } from "../../../shared/ops/operations.js";
import { createElectronBridge } from "./electron-bridge.js";

describe("the Electron bridge", () => {
  it("offers every operation of the table and passes each call to the preload's function of that name", async () => {
    const calls: unknown[][] = [];
    const api = Object.fromEntries(
      OPERATION_NAMES.map((op) => [
        op,
        async (args: unknown) => {
          calls.push([op, args]);
          return { op };
        },
      ]),
    ) as unknown as InspectorApi;
    const bridge = createElectronBridge(api);
    for (const op of OPERATION_NAMES) {
      const fn = bridge[op] as (a: unknown) => Promise<unknown>;
      expect(await fn({ probe: op })).toEqual({ op });
    }
    expect(calls).toEqual(OPERATION_NAMES.map((op) => [op, { probe: op }]));
  });
});
