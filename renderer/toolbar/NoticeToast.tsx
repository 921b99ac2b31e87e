/**
 * The toolbar's notice after an action, as a toast under the toolbar: it never takes a row of its
 * own, it expires (info after 10 s, errors after 30 s) and it can be dismissed. A notice that
 * changes state (a rule "armed", then "fired at …") replaces the old text and restarts the clock.
 */
import { X } from "lucide-react";
import { useEffect } from "react";
import { useInspector } from "../store/inspector-store.js";

/** How long a notice stays, by tone. */
export const NOTICE_MS = { info: 10_000, error: 30_000 } as const;

/** The toast (an `output`, so screen readers hear each new notice). */
export function NoticeToast() {
  const notice = useInspector((s) => s.notice);
  const setNotice = useInspector((s) => s.setNotice);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(undefined), NOTICE_MS[notice.tone]);
    return () => clearTimeout(timer);
  }, [notice, setNotice]);
  return (
    <output className="toolbar__notice" aria-live="polite" data-tone={notice?.tone}>
      {notice ? (
        <span className={`toast toast--${notice.tone === "error" ? "error" : "info"}`}>
          <span className="toast__icon" aria-hidden="true">
            {notice.tone === "error" ? "✗" : "i"}
          </span>
          <span className="toast__text">{notice.text}</span>
          <button
            type="button"
            className="button--quiet toast__close"
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
