/**
 * The fault menu of a Timeline row (right-click, the row's ⋯ button, or the menu key / Shift+F10 on
 * the selected row): faults filled in for that row, armed on the shown trace's tap.
 */
import { createContext, type KeyboardEvent, useContext, useEffect, useRef } from "react";
import { useInspector } from "../../model/store/inspector-store.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { useArmFault, useLiveTaps } from "./fault-arming.js";
import { faultForm, tapWords } from "./fault-form.js";
import { rowFaultItems } from "./row-faults.js";

/** Where a menu is open: the row and the point it opens at. */
export interface RowMenuAt {
  readonly row: TimelineRow;
  readonly x: number;
  readonly y: number;
}

/** Opens a row's menu (provided by the Timeline). */
export const RowMenuContext = createContext<(at: RowMenuAt) => void>(() => {});

/** The ⋯ button of a submission or attempt row. */
export function RowMenuButton({ row }: { row: TimelineRow }) {
  const open = useContext(RowMenuContext);
  return (
    <button
      type="button"
      className="row-menu-button"
      aria-label="Faults for this row"
      aria-haspopup="menu"
      onClick={(e) => {
        e.stopPropagation();
        const r = e.currentTarget.getBoundingClientRect();
        open({ row, x: r.left, y: r.bottom });
      }}
    >
      ⋯
    </button>
  );
}

/** The open menu. */
export function RowFaultMenu({ at, onClose }: { at: RowMenuAt; onClose: () => void }) {
  const shown = useInspector((s) => s.traceId);
  const armFault = useArmFault();
  const ref = useRef<HTMLDivElement>(null);
  const tap = useLiveTaps().find((t) => t.traceId === shown);
  const items = rowFaultItems(at.row);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
    const away = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [onClose]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>("button:not([disabled])") ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      onClose();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = (i + (e.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length;
      buttons[next]?.focus();
    }
  };
  return (
    <div
      ref={ref}
      className="row-menu"
      role="menu"
      aria-label="Faults for this row"
      style={{ left: Math.min(at.x, window.innerWidth - 380), top: Math.min(at.y, window.innerHeight - 320) }}
      onKeyDown={onKeyDown}
    >
      <div className="row-menu__where muted">
        {tap ? `Faults on ${tapWords([tap], false)}` : "This trace's tap is not live: nothing to arm on"}
      </div>
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          disabled={!tap}
          onClick={() => {
            onClose();
            if (!tap) return;
            if ("form" in item) {
              faultForm.getState().fill(item.form);
              return;
            }
            armFault(item.label, { ...item.spec, target: { tap: tap.traceId } }, [tap]);
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
