/** An idempotency key, shortened for tables, with the full key on hover and for screen readers. */
import { visibleText } from "../model/text/visible-text.js";

/** Shortens a key to at most 16 visible characters: head…tail. Keys are opaque, so nothing else changes. */
export function shortenKey(key: string): string {
  return key.length <= 16 ? key : `${key.slice(0, 8)}…${key.slice(-6)}`;
}

/** The key as a compact code chip; `title` and hidden text carry the full key. */
export function KeyBadge({ idempotencyKey }: { idempotencyKey: string }) {
  return (
    <code className="key-badge" title={visibleText(idempotencyKey)}>
      {shortenKey(visibleText(idempotencyKey))}
      <span className="visually-hidden"> (idempotency key {visibleText(idempotencyKey)})</span>
    </code>
  );
}
