/**
 * Presenter mode: on with `?present` in the page's URL or the toolbar's toggle. It is a query flag
 * (the access token rides in the fragment, `#token=…`, and is untouched); the toggle rewrites only
 * the query with history.replaceState, so a reload keeps the mode and the token stays where it was.
 */
import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
let present = typeof window !== "undefined" && presentFromSearch(window.location.search);

/** Whether `search` (a URL's query) asks for presenter mode: `?present`, `?present=1`, not `?present=0`. */
export function presentFromSearch(search: string): boolean {
  const params = new URLSearchParams(search);
  if (!params.has("present")) return false;
  const v = params.get("present") ?? "";
  return v !== "0" && v !== "false";
}

/** The URL with the present flag set or removed; the path, the other parameters and the fragment are kept. */
export function withPresentFlag(href: string, on: boolean): string {
  const url = new URL(href);
  if (on) url.searchParams.set("present", "");
  else url.searchParams.delete("present");
  // `?present=` reads worse than `?present`; both parse the same.
  return url.toString().replace(/([?&]present)=(?=&|#|$)/, "$1");
}

/** Turns presenter mode on or off, in the document and in the address bar. */
export function setPresenter(win: Window, on: boolean): void {
  present = on;
  win.document.documentElement.dataset.present = on ? "on" : "off";
  const next = withPresentFlag(win.location.href, on);
  if (next !== win.location.href) win.history.replaceState(win.history.state, "", next);
  for (const l of listeners) l();
}

/** The current mode; re-renders when it changes. */
export function usePresenter(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => present,
  );
}
