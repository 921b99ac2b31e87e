/**
 * The drag handle between two panes (the ARIA window-splitter pattern): drag it with the pointer,
 * or focus it and use the arrow keys (Shift for bigger steps), Home and End. The size it sets is
 * the pane on the far side of the handle (right of a vertical one, below a horizontal one).
 */
import type { KeyboardEvent, PointerEvent } from "react";
import { useRef } from "react";

/** What the handle resizes and how. */
export interface SplitHandleProps {
  /** The accessible name, e.g. "Resize the details pane". */
  readonly label: string;
  readonly orientation: "vertical" | "horizontal";
  readonly size: number;
  readonly min: number;
  readonly max: number;
  onResize(px: number): void;
}

/** The handle. */
export function SplitHandle({ label, orientation, size, min, max, onResize }: SplitHandleProps) {
  const start = useRef<{ at: number; size: number } | undefined>(undefined);
  const vertical = orientation === "vertical";
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { at: vertical ? e.clientX : e.clientY, size };
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const s = start.current;
    if (!s) return;
    // the pane lies right of / below the handle: moving towards it makes it smaller
    onResize(s.size - ((vertical ? e.clientX : e.clientY) - s.at));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 80 : 20;
    const grow = vertical ? "ArrowLeft" : "ArrowUp";
    const shrink = vertical ? "ArrowRight" : "ArrowDown";
    const next =
      e.key === grow
        ? size + step
        : e.key === shrink
          ? size - step
          : e.key === "Home"
            ? min
            : e.key === "End"
              ? max
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    onResize(next);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a window splitter has no native element; <hr> cannot be focused or dragged
    <div
      className={`split-handle split-handle--${orientation}`}
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => {
        start.current = undefined;
      }}
      onPointerCancel={() => {
        start.current = undefined;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
