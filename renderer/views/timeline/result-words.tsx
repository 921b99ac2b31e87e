/**
 * Result words with their long ids shortened on screen: each messageId (after `messageId `, or any
 * UUID) longer than a short id shows as its first 8 characters and "…", the whole id as its tooltip
 * (and whole in the Details pane). The shortening is done in the text, not by CSS, so nothing
 * follows the "…" but the words' own punctuation.
 */
import type { ReactNode } from "react";
import { visibleText } from "../../model/text/visible-text.js";

/** An id in result words (after `messageId `, or any UUID). */
const MESSAGE_ID = /(?<=messageId )[^\s;,)]+|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/giu;
/** How many characters of an id show before the "…". */
const SHOWN_CHARS = 8;
/** Ids up to this length show whole (a cut would save next to nothing). */
const WHOLE_UP_TO = SHOWN_CHARS + 3;

/** A piece of result words: plain text, or a long id with how it shows. */
export type ResultSegment = { readonly text: string } | { readonly id: string; readonly shown: string };

/** The words cut into plain text and long ids. */
export function resultSegments(text: string): ResultSegment[] {
  const out: ResultSegment[] = [];
  let at = 0;
  for (const m of text.matchAll(MESSAGE_ID)) {
    const id = m[0];
    const from = m.index ?? 0;
    if (id.length <= WHOLE_UP_TO) continue;
    if (from > at) out.push({ text: text.slice(at, from) });
    out.push({ id, shown: `${id.slice(0, SHOWN_CHARS)}…` });
    at = from + id.length;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at) });
  return out;
}

/** The result words as they show: each long id cut to its first characters and "…". */
export function shownResult(text: string): string {
  return resultSegments(visibleText(text))
    .map((s) => ("id" in s ? s.shown : s.text))
    .join("");
}

/** The result words (their invisible controls shown), each long id shortened with the whole id as its tooltip. */
export function ResultWords({ text }: { text: string }): ReactNode {
  return (
    <>
      {resultSegments(visibleText(text)).map((s, i) =>
        "id" in s ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in order
          <span key={i} title={s.id}>
            {s.shown}
          </span>
        ) : (
          s.text
        ),
      )}
    </>
  );
}
