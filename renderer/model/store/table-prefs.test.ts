import { describe, expect, it } from "vitest";
import { clampWidth, NO_PREFS, parseTablePrefs, serializeTablePrefs } from "./table-prefs.js";

describe("table prefs", () => {
  it("reads back what it wrote", () => {
    const prefs = {
      sizing: { result: 240, what: 90 },
      visibility: { time: true, ids: false },
      sorting: [{ id: "latency", desc: true }],
    };
    expect(parseTablePrefs(serializeTablePrefs(prefs))).toEqual(prefs);
  });

  it("drops bad stored values field by field, never throws", () => {
    expect(parseTablePrefs(null)).toEqual(NO_PREFS);
    expect(parseTablePrefs("{not json")).toEqual(NO_PREFS);
    expect(parseTablePrefs("[1,2]")).toEqual(NO_PREFS);
    expect(parseTablePrefs('"text"')).toEqual(NO_PREFS);
    expect(
      parseTablePrefs(
        JSON.stringify({
          sizing: { result: "wide", what: -5, key: 1e9, ok: 120, "bad id!": 100, nan: null },
          visibility: { time: "yes", ids: false },
          sorting: [{ id: "latency", desc: "down" }],
        }),
      ),
    ).toEqual({ sizing: { ok: 120 }, visibility: { ids: false }, sorting: [] });
    expect(
      parseTablePrefs(
        JSON.stringify({
          sorting: [
            { id: "time", desc: false },
            { id: "pid", desc: true },
          ],
        }),
      ).sorting,
    ).toEqual([{ id: "time", desc: false }]);
    expect(parseTablePrefs(JSON.stringify({ sizing: [], visibility: 3, sorting: {} }))).toEqual(NO_PREFS);
  });

  it("clamps widths to the column's and the global limits", () => {
    expect(clampWidth(5)).toBe(20);
    expect(clampWidth(5, 60)).toBe(60);
    expect(clampWidth(5000)).toBe(2000);
    expect(clampWidth(300, 20, 250)).toBe(250);
    expect(clampWidth(100.4)).toBe(100);
  });
});
