/** Runs a bridge operation from a button and reports the outcome in the toolbar's notice line. */
import { useCallback } from "react";
import { useInspector } from "../store/inspector-store.js";

/**
 * Returns `run(label, fn)`: awaits `fn`, then shows `label: done` (or `summarize`'s words) or the
 * error's message. A `summarize` that returns null shows nothing on success: another part of the
 * screen already says what happened (the demo's caption follows a scenario step by step).
 */
export function useOperation(): <T>(
  label: string,
  fn: () => Promise<T>,
  summarize?: (r: T) => string | null,
) => Promise<void> {
  const setNotice = useInspector((s) => s.setNotice);
  return useCallback(
    async (label, fn, summarize) => {
      try {
        const result = await fn();
        const words = summarize ? summarize(result) : "done";
        if (words !== null) setNotice({ tone: "info", text: `${label}: ${words}` });
      } catch (err) {
        setNotice({
          tone: "error",
          text: `${label} failed: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
    },
    [setNotice],
  );
}
