/**
 * A long reason folded to its first line: the text up to its first line break (or `max`
 * characters), then a "more" button that shows the rest ("less" folds it again). Short text is
 * shown as it is. The text is rendered as text, never as HTML.
 */
import { useState } from "react";
import { visibleText } from "../model/text/visible-text.js";

/** Where a text is folded: its first line break within `max`, else `max`; -1 when it fits whole. */
export function foldAt(text: string, max: number): number {
  const nl = text.indexOf("\n");
  if (nl !== -1 && nl <= max) return nl;
  return text.length > max ? max : -1;
}

/** A reason folded to its first line, with "more" to unfold it. */
export function FoldedText({ text, max = 160 }: { readonly text: string; readonly max?: number }) {
  const [open, setOpen] = useState(false);
  const shown = visibleText(text);
  const at = foldAt(shown, max);
  if (at === -1) return <>{shown}</>;
  return (
    <span className="folded-text">
      {open ? shown : `${shown.slice(0, at).trimEnd()}…`}{" "}
      <button
        type="button"
        className="folded-text__more"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!open);
        }}
      >
        {open ? "less" : `more (${shown.length - at} characters)`}
      </button>
    </span>
  );
}
