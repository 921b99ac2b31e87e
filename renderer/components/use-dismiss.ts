/**
 * Closes a popup (a menu, a panel, a suggestion list) while it is open: on a pointer press outside
 * `root`, and on Escape (caught before the page's own keys, so Escape closes the popup only).
 */
import { type RefObject, useEffect } from "react";

/** While `open`, calls `close(reason)` on a press outside `root` or on Escape. */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: (reason: "outside" | "escape") => void,
  options: { readonly escape?: boolean } = {},
): void {
  const onEscapeToo = options.escape !== false;
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close("outside");
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      close("escape");
    };
    document.addEventListener("pointerdown", away);
    if (onEscapeToo) document.addEventListener("keydown", onEscape, true);
    return () => {
      document.removeEventListener("pointerdown", away);
      if (onEscapeToo) document.removeEventListener("keydown", onEscape, true);
    };
  }, [open, root, close, onEscapeToo]);
}
