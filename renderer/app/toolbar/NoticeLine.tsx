/**
 * The notice after an action, in the tab row between the tabs and the trace facts: a strip the
 * layout keeps for it, so it covers nothing (no table row, no cell) and moves nothing (two short
 * lines at most, within the tabs' height; a longer one ends in "…" and its tooltip has it whole).
 * It expires (info after 10 s, errors after 30 s) and can be dismissed. A notice that changes
 * state (a rule "armed", then "fired at …") replaces the old text and restarts the clock. A notice
 * often quotes a file name, a tap's name or the hub's words, so it is shown through `visibleText`.
 */
import { X } from "lucide-react";
import { useEffect } from "react";
import { useInspector } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";

/** How long a notice stays, by tone. */
export const NOTICE_MS = { info: 10_000, error: 30_000 } as const;

/** The notice (an `output`, so screen readers hear each new notice). */
export function NoticeLine() {
  const notice = useInspector((s) => s.notice);
  const setNotice = useInspector((s) => s.setNotice);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(undefined), NOTICE_MS[notice.tone]);
    return () => clearTimeout(timer);
  }, [notice, setNotice]);
  return (
    <output className="notice-line" aria-live="polite" data-tone={notice?.tone}>
      {notice ? (
        <span className={`notice notice--${notice.tone === "error" ? "error" : "info"}`}>
          <span className="notice__icon" aria-hidden="true">
            {notice.tone === "error" ? "✗" : "i"}
          </span>
          <span className="notice__text" title={visibleText(notice.text)}>
            {visibleText(notice.text)}
          </span>
          <button
            type="button"
            className="button--quiet notice__close"
            aria-label="Dismiss notice"
            onClick={() => setNotice(undefined)}
          >
            <X className="icon" aria-hidden="true" />
          </button>
        </span>
      ) : null}
    </output>
  );
}
