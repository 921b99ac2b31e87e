/** Reads and applies the user's theme choice; defaults follow the system's light/dark setting. */
import type { ThemeName } from "../../model/store/view-slice.js";

const THEME_KEY = "acp-inspector-theme";
const TEXT_KEY = "acp-inspector-large-text";

/** The saved theme and text size, or the system's preference. */
export function loadThemePreference(win: Window): { theme: ThemeName; largeText: boolean } {
  const saved = win.localStorage.getItem(THEME_KEY);
  const theme: ThemeName =
    saved === "light" || saved === "dark"
      ? saved
      : win.matchMedia("(prefers-color-scheme: light)").matches
        ? "light"
        : "dark";
  return { theme, largeText: win.localStorage.getItem(TEXT_KEY) === "1" };
}

/** Applies theme and text size to the document and remembers them. */
export function applyThemePreference(win: Window, theme: ThemeName, largeText: boolean): void {
  const root = win.document.documentElement;
  root.dataset.theme = theme;
  root.dataset.text = largeText ? "large" : "normal";
  win.localStorage.setItem(THEME_KEY, theme);
  win.localStorage.setItem(TEXT_KEY, largeText ? "1" : "0");
}
