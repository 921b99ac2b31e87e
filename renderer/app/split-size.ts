/** A pane size in px that the user drags or keys, clamped and remembered in localStorage per pane. */
import { useCallback, useState } from "react";

const PREFIX = "acp-inspector-split-";

/** Clamps `px` into [min, max] and rounds it. */
export function clampSize(px: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, px)));
}

function saved(key: string): number | undefined {
  const v = Number(window.localStorage.getItem(key));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/** The remembered size of pane `name` (or `initial`), and a setter that clamps and stores it. */
export function useSplitSize(
  name: string,
  initial: number,
  min: number,
  max: number,
): readonly [number, (px: number) => void] {
  const key = PREFIX + name;
  const [sizes, setSizes] = useState<Readonly<Record<string, number>>>({});
  const set = useCallback(
    (px: number) => {
      const v = clampSize(px, min, max);
      window.localStorage.setItem(key, String(v));
      setSizes((s) => ({ ...s, [key]: v }));
    },
    [key, min, max],
  );
  return [clampSize(sizes[key] ?? saved(key) ?? initial, min, max), set] as const;
}
