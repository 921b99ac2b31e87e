/**
 * The search box of the shared filter (Timeline, Records and Sequence show the same one): the
 * query text, DevTools style (`method:session/prompt -verdict:single "two words"`), its problems
 * in words below it, and suggestions of field names and of values seen in the shown trace.
 */
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from "react";
import {
  applySuggestion,
  type KnownValues,
  type Suggestions,
  suggest,
} from "../../shared/filter/edit-filter.js";
import { useInspector } from "../model/store/inspector-store.js";
import type { TimelineView } from "../model/traces/timeline-view.js";
import { useDismiss } from "./use-dismiss.js";
import "./filter.css";
import { visibleText } from "../model/text/visible-text.js";

/** Values of the shown trace worth suggesting (bounded: a huge trace offers its first ones). */
function knownValues(view: TimelineView): KnownValues {
  const cap = 200;
  const methods = new Set<string>(["session/prompt"]);
  for (const r of view.requests) if (r.method) methods.add(r.method);
  const sessions = new Set<string>();
  const keys = new Set<string>();
  for (const s of view.submissions) {
    if (sessions.size < cap && s.sessionId) sessions.add(s.sessionId);
    if (keys.size < cap && s.key) keys.add(s.key);
    if (sessions.size >= cap && keys.size >= cap) break;
  }
  return {
    method: [...methods].sort(),
    session: [...sessions],
    key: [...keys],
    connection: view.connections.map((c) => String(c.conn)),
  };
}

/** The part of the term at the caret before it (white space ends a term). */
function termAt(text: string, caret: number): string {
  let from = caret;
  while (from > 0 && !/\s/u.test(text[from - 1] as string)) from--;
  return text.slice(from, caret);
}

/** Props of `FilterBox`. */
export interface FilterBoxProps {
  /** What the rows are, for the placeholder ("rows and frames", "records"). */
  readonly placeholder?: string;
}

/** The query input with its suggestions and inline problems. */
export function FilterBox({
  placeholder = "text, or method:session/prompt -verdict:single",
}: FilterBoxProps) {
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(-1);
  const [closed, setClosed] = useState(false);
  const id = useId();
  const listId = `${id}-suggestions`;
  const problemsId = `${id}-problems`;

  const open = caret !== null && !closed;
  // Known values are gathered only while the list offers values (the term at the caret has a
  // colon), not for free text nor on every live batch.
  const offersValues = open && termAt(filter.text, caret).includes(":");
  // The view only then: a live publish (a new view) renders the box again only while it offers values.
  const view = useInspector((s) => (offersValues ? s.view : undefined));
  const known = useMemo(() => (view ? knownValues(view) : {}), [view]);
  const suggestions: Suggestions = useMemo(
    () => (open ? suggest(filter.text, caret, known) : { from: 0, to: 0, items: [] }),
    [open, filter.text, caret, known],
  );
  const shown = open && suggestions.items.length > 0;
  // A press anywhere outside the box closes the list (Escape is the input's own key, below).
  const dismiss = useCallback(() => {
    setClosed(true);
    setActive(-1);
  }, []);
  useDismiss(shown, rootRef, dismiss, { escape: false });

  const track = () => {
    const el = inputRef.current;
    if (el) setCaret(el.selectionStart ?? el.value.length);
  };
  const accept = (index: number) => {
    const item = suggestions.items[index];
    if (!item) return;
    const next = applySuggestion(filter.text, suggestions, item);
    setFilter({ text: next.text });
    setActive(-1);
    setCaret(next.caret);
    // A chosen value completes its term: the list closes. A chosen field name ("verdict:") opens its values.
    setClosed(!item.insert.endsWith(":"));
    requestAnimationFrame(() => {
      const el = inputRef.current;
      if (el) {
        el.focus();
        el.setSelectionRange(next.caret, next.caret);
      }
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!shown) {
        setClosed(false);
        track();
        return;
      }
      e.preventDefault();
      const n = suggestions.items.length;
      setActive((a) => (e.key === "ArrowDown" ? (a + 1) % n : (a - 1 + n) % n));
    } else if ((e.key === "Enter" || e.key === "Tab") && shown && active >= 0) {
      e.preventDefault();
      accept(active);
    } else if (e.key === "Escape") {
      // Escape closes the suggestions; it never wipes the query (a search input's own Escape would)
      e.preventDefault();
      setClosed(true);
      setActive(-1);
    }
  };

  // While suggestions complete the term at the caret, that term's problem (an unfinished value) waits.
  const problems = shown
    ? filter.problems.filter((p) => !(p.start <= suggestions.from && p.end >= suggestions.to))
    : filter.problems;
  return (
    <div className="filter-box" ref={rootRef}>
      <label className="filter-box__label">
        Search{" "}
        <input
          ref={inputRef}
          type="search"
          className="filter-box__input"
          value={filter.text}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          aria-autocomplete="list"
          aria-controls={shown ? listId : undefined}
          aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={problems.length > 0}
          aria-describedby={problems.length > 0 ? problemsId : undefined}
          title="Terms: text, field:value, -term to exclude, &quot;quoted words&quot;. Fields: method, session, key, outcome, verdict, direction, connection, id, origin"
          onChange={(e) => {
            setFilter({ text: e.currentTarget.value });
            setClosed(false);
            setActive(-1);
            setCaret(e.currentTarget.selectionStart ?? e.currentTarget.value.length);
          }}
          onKeyDown={onKeyDown}
          onClick={track}
          onFocus={() => {
            setClosed(false);
            track();
          }}
          onBlur={() => {
            setCaret(null);
            setActive(-1);
          }}
        />
      </label>
      <div className="filter-box__popups">
        {problems.length > 0 ? (
          <ul className="filter-box__problems" id={problemsId} aria-label="Filter problems">
            {problems.map((p) => (
              <li key={`${p.start}:${p.end}:${p.message}`}>
                <code>{visibleText(filter.text.slice(p.start, p.end)) || "(empty)"}</code>:{" "}
                {visibleText(p.message)}
              </li>
            ))}
          </ul>
        ) : null}
        {shown ? (
          <div className="filter-box__suggestions" id={listId} role="listbox" aria-label="Suggestions">
            {suggestions.items.map((s, i) => (
              <div
                key={s.insert}
                id={`${listId}-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className="filter-box__option"
                // mousedown, not click: the input keeps its focus and caret
                onMouseDown={(e) => {
                  e.preventDefault();
                  accept(i);
                }}
              >
                <code>{visibleText(s.label)}</code>
                {s.detail ? <span className="filter-box__detail"> {visibleText(s.detail)}</span> : null}
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
