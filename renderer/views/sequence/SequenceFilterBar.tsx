/** The Sequence's filter row: the shared search box, how many rows match, "Only matching rows" and next/previous match. */
import type { ReactNode } from "react";

/** Props of SequenceFilterBar. */
export interface SequenceFilterBarProps {
  /** The app's shared search box. */
  readonly filterBar: ReactNode;
  /** Whether the shared filter is active. */
  readonly filtering: boolean;
  /** Whether only the matching rows are drawn. */
  readonly showOnly: boolean;
  readonly onlyMatches: boolean;
  onOnlyMatchesChange?(on: boolean): void;
  /** How many rows match, and how many rows the whole diagram has. */
  readonly matches: number;
  readonly allRows: number;
  onStep(dir: 1 | -1): void;
}

/** The filter row, or nothing without a search box or an active filter. */
export function SequenceFilterBar(p: SequenceFilterBarProps) {
  if (!p.filterBar && !p.filtering) return null;
  return (
    <div className="seq__filter">
      {p.filterBar}
      {p.filtering ? (
        <span className="seq__matches" role="status" aria-label="Sequence matches">
          {p.showOnly
            ? `only the ${p.matches} matching rows of ${p.allRows}`
            : `${p.matches} of ${p.allRows} rows match`}
        </span>
      ) : null}
      {p.filtering && p.onOnlyMatchesChange ? (
        <label>
          <input
            type="checkbox"
            checked={p.onlyMatches}
            onChange={(e) => p.onOnlyMatchesChange?.(e.currentTarget.checked)}
          />{" "}
          Only matching rows
        </label>
      ) : null}
      {p.filtering ? (
        <>
          <button type="button" onClick={() => p.onStep(-1)} disabled={p.matches === 0}>
            Previous match
          </button>
          <button type="button" onClick={() => p.onStep(1)} disabled={p.matches === 0}>
            Next match
          </button>
        </>
      ) : null}
    </div>
  );
}
