/**
 * The Sequence's header: its title, the rows on screen, "Jump to submission", "Show selection",
 * Export SVG / Export PNG and a status line saying what the last of them did.
 */
import { visibleText } from "../../model/text/visible-text.js";
import { type PickableSubmission, submissionLabel } from "./submission-picker.js";

/** Props of SequenceHeader. */
export interface SequenceHeaderProps {
  readonly rowCount: number;
  readonly firstOnScreen: number;
  readonly lastOnScreen: number;
  readonly frames: number;
  readonly pickable: { readonly list: readonly PickableSubmission[]; readonly total: number };
  readonly filtering: boolean;
  /** A submission's number was picked. */
  onJump(value: string): void;
  readonly hasSelection: boolean;
  onShowSelection(): void;
  onExportSvg(): void;
  onExportPng(): void;
  readonly status: string;
}

/** The header row above the lanes. */
export function SequenceHeader(p: SequenceHeaderProps) {
  const { pickable, filtering } = p;
  return (
    <header className="seq__header">
      <h2 className="seq__title">Sequence</h2>
      <span className="seq__range">
        {p.rowCount === 0
          ? "no rows"
          : `rows ${p.firstOnScreen + 1}–${p.lastOnScreen + 1} of ${p.rowCount} · ${p.frames} frames`}
      </span>
      <label>
        Jump to submission{" "}
        <select
          className="seq__picker"
          value=""
          onChange={(e) => p.onJump(e.currentTarget.value)}
          disabled={pickable.list.length === 0}
        >
          <option value="">
            {pickable.total === 0
              ? filtering
                ? "none matches the filter"
                : "no submissions"
              : `${pickable.total} ${filtering ? "matching " : ""}submission${pickable.total === 1 ? "" : "s"}${pickable.total > pickable.list.length ? ` (first ${pickable.list.length}; narrow the filter)` : ""}`}
          </option>
          {pickable.list.map((s) => (
            <option key={s.number} value={String(s.number)}>
              {visibleText(submissionLabel(s.sub, s.number))}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={!p.hasSelection} onClick={p.onShowSelection}>
        Show selection
      </button>
      <button type="button" onClick={p.onExportSvg} disabled={p.rowCount === 0}>
        Export SVG
      </button>
      <button type="button" onClick={p.onExportPng} disabled={p.rowCount === 0}>
        Export PNG
      </button>
      <span className="seq__status" role="status">
        {p.status}
      </span>
    </header>
  );
}
