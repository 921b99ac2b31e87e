/** Every screen explains itself: what this area shows, why it is empty, and what to do next. */
import type { ReactNode } from "react";

/** A titled explanation shown where there is nothing to display yet. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state" role="note" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}
