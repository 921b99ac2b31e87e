/**
 * Closes a popup (a menu, a panel, a suggestion list) while it is open: on a pointer press outside
 * `root`, and on Escape (caught before the page's own keys, so Escape closes the popup only).
 * `useMenu` is a button's menu built on it (the column menu, the Timeline's Filters menu).
 */
import { type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";

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

/** A button that opens a panel: its state, the panel's id, and refs for the root and the button. */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Escape gives the focus back to the button; a press elsewhere leaves it where it went.
  const close = useCallback((reason: "outside" | "escape") => {
    setOpen(false);
    if (reason === "escape") button.current?.focus();
  }, []);
  useDismiss(open, root, close);
  return { open, setOpen, panelId, root, button };
}
