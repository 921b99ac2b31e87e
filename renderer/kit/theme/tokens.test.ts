import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contrastRatio, STATE_PAIRS } from "./contrast.js";

// Reads the token values out of theme.css itself, so the test follows the file.
const css = readFileSync(join(import.meta.dirname, "theme.css"), "utf8");

function tokens(theme: "light" | "dark"): Map<string, string> {
  const block = new RegExp(`:root\\[data-theme="${theme}"\\]\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? "";
  const out = new Map<string, string>();
  for (const m of block.matchAll(/(--[a-z0-9-]+)\s*:\s*([^;]+);/g)) out.set(m[1] ?? "", (m[2] ?? "").trim());
  return out;
}

describe("theme tokens", () => {
  for (const theme of ["light", "dark"] as const) {
    const t = tokens(theme);
    it(`${theme}: every state colour has a contrast of at least 4.5:1 on its backgrounds`, () => {
      const failures: string[] = [];
      let checked = 0;
      for (const pair of STATE_PAIRS) {
        const fg = t.get(pair.fg);
        expect(fg, `${theme} defines ${pair.fg}`).toMatch(/^#[0-9a-f]{6}$/i);
        for (const on of pair.on) {
          const bg = t.get(on);
          expect(bg, `${theme} defines ${on}`).toMatch(/^#[0-9a-f]{6}$/i);
          const ratio = contrastRatio(fg ?? "", bg ?? "");
          checked++;
          if (ratio < 4.5) failures.push(`${pair.fg} on ${on}: ${ratio.toFixed(2)}:1`);
        }
      }
      expect(checked).toBeGreaterThan(25);
      expect(failures).toEqual([]);
    });
  }

  it("light and dark define the same tokens", () => {
    expect([...tokens("light").keys()].sort()).toEqual([...tokens("dark").keys()].sort());
  });

  it("the older variable names stay defined, as aliases of the tokens", () => {
    for (const name of [
      "--bg",
      "--bg-raised",
      "--fg",
      "--fg-muted",
      "--border",
      "--ok-fg",
      "--warn-bg",
      "--error-fg",
    ]) {
      expect(css).toMatch(new RegExp(`${name}:\\s*var\\(--`));
    }
  });

  it("the contrast formula gives the WCAG figures", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(() => contrastRatio("red", "#ffffff")).toThrow(/#rrggbb/);
  });
});
