/** Runs a bridge operation from a button and reports the outcome in the toolbar's notice line. */
import { useCallback } from "react";
import { useInspector } from "../store/inspector-store.js";

/** Returns `run(label, fn)`: awaits `fn`, then shows `label: done` or the error's message. */
export function useOperation(): <T>(
  label: string,
  fn: () => Promise<T>,
  summarize?: (r: T) => string,
) => Promise<void> {
  const setNotice = useInspector((s) => s.setNotice);
  return useCallback(
    async (label, fn, summarize) => {
      try {
        const result = await fn();
        setNotice({ tone: "info", text: `${label}: ${summarize ? summarize(result) : "done"}` });
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
