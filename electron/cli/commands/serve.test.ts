import { describe, expect, it } from "vitest";
import { CliError } from "../command.js";
import { byteSize } from "./serve.js";

describe("serve --ring-bytes", () => {
  it("reads a byte count, bare or with KiB, MiB or GiB", () => {
    expect(byteSize("--ring-bytes", undefined)).toBeUndefined();
    expect(byteSize("--ring-bytes", "67108864")).toBe(64 << 20);
    expect(byteSize("--ring-bytes", "64MiB")).toBe(64 << 20);
    expect(byteSize("--ring-bytes", "512kib")).toBe(512 << 10);
    expect(byteSize("--ring-bytes", "2GiB")).toBe(2 * 2 ** 30);
  });

  it("refuses anything else", () => {
    for (const v of ["", "0", "-1", "64MB", "1.5MiB", "MiB", "65GiB"])
      expect(() => byteSize("--ring-bytes", v)).toThrow(CliError);
  });
});
