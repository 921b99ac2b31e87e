/**
 * The key group under a submission's result: its short key, "3 attempts · 2 dropped · 1 insert ·
 * deduplicated" and the messageId it settled on (shared/analyzer/group-summary.ts), so the group the
 * product is named after is read in the row itself, without the Key, Ids or Conn columns. The final
 * messageId is left out of the line when the result words above it already name it.
 */
import { groupSummary } from "../../../shared/analyzer/group-summary.js";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { visibleText } from "../../model/text/visible-text.js";

/** The group line's text: key, counts, final messageId (tooltips, Details, search of the Key column). */
export function groupLineText(s: Submission): string {
  const g = groupSummary(s);
  const key = s.key === null ? g.shortKey : visibleText(s.key);
  const final = g.finalMessageId === null ? "" : ` · final messageId ${visibleText(g.finalMessageId)}`;
  return `key ${key} · ${g.words}${final}`;
}

/** The head of a key for the group line: its first 8 characters and "…" when longer than 10. */
export function keyHead(key: string): string {
  return key.length <= 10 ? key : `${key.slice(0, 8)}…`;
}

/** The group line of a submission row. */
export function GroupLine({ s }: { s: Submission }) {
  const g = groupSummary(s);
  return (
    <span className="tl-group" data-testid="key-group">
      {s.key !== null ? (
        // the key's head only: the line must leave room for its words at 1280 px; the whole key is on
        // hover, read to screen readers, and in Details
        <code className="key-badge" title={visibleText(s.key)}>
          {keyHead(visibleText(s.key))}
          <span className="visually-hidden"> (idempotency key {visibleText(s.key)})</span>
        </code>
      ) : (
        <span
          className={s.keyStatus === "invalid" ? "tl-group__nokey tl-group__nokey--bad" : "tl-group__nokey"}
        >
          {g.shortKey}
        </span>
      )}
      <span className="tl-group__words">{g.words}</span>
      {g.finalMessageId === null || s.result.includes(g.finalMessageId) ? null : (
        <span className="tl-group__final" title="the messageId the submission settled on">
          → {visibleText(g.finalMessageId)}
        </span>
      )}
    </span>
  );
}
