/**
 * Which trace the views show: a compact button naming the shown trace (name, status, start time)
 * that opens a searchable list of every trace, newest first (the hub's live taps and files imported
 * here), and the "Follow newest" toggle. Every string from the wire is rendered as text.
 */
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { Badge } from "../../kit/Badge.js";
import { useInspector } from "../../model/store/inspector-store.js";
import type { TraceEntry } from "../../model/traces/trace-catalog.js";
import { TraceActions } from "../../views/diff/TraceActions.js";
import {
  entryMatches,
  entryTitle,
  recordCount,
  shortCommand,
  startTime,
  statusChip,
  verdictChip,
} from "./trace-words.js";
import "./trace-picker.css";
import { visibleText } from "../../model/text/visible-text.js";

function EntryLines({ entry }: { entry: TraceEntry }) {
  const status = statusChip(entry.status);
  const verdicts = verdictChip(entry.verdicts, entry.status === "running" || entry.status === "waiting");
  const second = [entry.detail, entry.command ? shortCommand(entry.command) : ""].filter((t) => t !== "");
  return (
    <>
      <span className="trace-entry__top">
        <strong className="trace-entry__name">{entry.label}</strong>
        <Badge tone={status.tone} title={status.title}>
          {status.label}
        </Badge>
        <Badge tone={verdicts.tone}>{verdicts.label}</Badge>
      </span>
      <span className="trace-entry__meta">
        started {startTime(entry.startedAt)} · {recordCount(entry.records)}
        {entry.source === "live" ? ` · ${visibleText(entry.agent)}` : ""}
      </span>
      {second.length > 0 ? (
        <span className="trace-entry__detail">{visibleText(second.join(" · "))}</span>
      ) : null}
    </>
  );
}

/** The list that opens under the picker's button. */
function TraceList({
  traces,
  shownId,
  onPick,
  onClose,
}: {
  traces: readonly TraceEntry[];
  shownId: string | undefined;
  onPick(id: string): void;
  onClose(): void;
}) {
  const [query, setQuery] = useState("");
  const matching = useMemo(() => traces.filter((t) => entryMatches(t, query)), [traces, query]);
  // The active entry is kept by id: live entries move while the list is open.
  const [activeId, setActiveId] = useState(shownId);
  const [scrollTo, setScrollTo] = useState<string | undefined>(shownId);
  const listId = useId();
  const at = Math.max(
    0,
    matching.findIndex((t) => t.id === activeId),
  );
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    // only after keyboard moves (and on opening), never while the user scrolls the list
    if (scrollTo === undefined) return;
    const i = matching.findIndex((t) => t.id === scrollTo);
    if (i >= 0) document.getElementById(`${listId}-${i}`)?.scrollIntoView({ block: "nearest" });
    setScrollTo(undefined);
  }, [scrollTo, matching, listId]);

  const move = (i: number) => {
    const id = matching[Math.min(Math.max(0, i), matching.length - 1)]?.id;
    setActiveId(id);
    setScrollTo(id);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      move(at + (e.key === "ArrowDown" ? 1 : -1));
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      move(e.key === "Home" ? 0 : matching.length - 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const pick = matching[at];
      if (pick) onPick(pick.id);
    } else if (e.key === "Escape") {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <div className="trace-picker__popover" role="dialog" aria-label="Pick a trace" tabIndex={-1}>
      <input
        type="search"
        // biome-ignore lint/a11y/noAutofocus: the list opens to be searched; Escape gives focus back
        autoFocus
        aria-label="Find a trace"
        placeholder="Find by name, command, status…"
        value={query}
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={matching.length > 0 ? optionId(at) : undefined}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setActiveId(undefined);
        }}
        onKeyDown={onKeyDown}
      />
      <p className="trace-picker__count muted">
        {matching.length === traces.length
          ? `${traces.length} trace${traces.length === 1 ? "" : "s"}, newest first`
          : `${matching.length} of ${traces.length} traces match`}
      </p>
      <div className="trace-picker__list" role="listbox" id={listId} aria-label="Traces">
        {matching.map((t, i) => (
          <div
            key={t.id}
            id={optionId(i)}
            role="option"
            tabIndex={-1}
            aria-selected={t.id === shownId}
            className={`trace-entry${i === at ? " trace-entry--active" : ""}`}
            title={entryTitle(t)}
            onMouseMove={() => t.id !== activeId && setActiveId(t.id)}
            onClick={() => onPick(t.id)}
            onKeyDown={onKeyDown}
          >
            <EntryLines entry={t} />
          </div>
        ))}
        {matching.length === 0 ? <p className="trace-picker__none muted">No trace matches.</p> : null}
      </div>
    </div>
  );
}

/** The trace picker and the "Follow newest" toggle. */
export function TracePicker() {
  const traces = useInspector((s) => s.traces);
  const traceId = useInspector((s) => s.traceId);
  const follow = useInspector((s) => s.followNewest);
  const selectTrace = useInspector((s) => s.selectTrace);
  const setFollowNewest = useInspector((s) => s.setFollowNewest);
  const importing = useInspector((s) => s.importing);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLFieldSetElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const shown = traces.find((t) => t.id === traceId);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const status = shown ? statusChip(shown.status) : undefined;
  const summary = shown
    ? `${shown.label}, ${status?.label}, started ${startTime(shown.startedAt)}`
    : traces.length === 0
      ? "no trace yet"
      : "none";

  return (
    <fieldset
      className="toolbar__group trace-picker"
      ref={root}
      onBlur={(e) => {
        // Tabbing (or clicking) out of the picker closes the list.
        if (open && !root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <legend className="visually-hidden">Trace</legend>
      <button
        ref={button}
        type="button"
        className="trace-picker__button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Shown trace: ${summary}`}
        title={shown ? entryTitle(shown) : undefined}
        disabled={traces.length === 0}
        onClick={() => setOpen(!open)}
      >
        {shown ? (
          <>
            <strong className="trace-picker__name">{shown.label}</strong>
            {status ? <Badge tone={status.tone}>{status.label}</Badge> : null}
            <span className="trace-picker__time">{startTime(shown.startedAt)}</span>
          </>
        ) : (
          <span className="muted">{traces.length === 0 ? "no trace yet" : "pick one"}</span>
        )}
        <span aria-hidden="true">▾</span>
      </button>
      <button
        type="button"
        aria-pressed={follow}
        title="Show the newest live trace as soon as it attaches (while the demo plays a scenario: the demo's trace). Picking a trace turns this off."
        onClick={() => setFollowNewest(!follow)}
      >
        <span aria-hidden="true">{follow ? "☑ " : "☐ "}</span>
        Follow<span className="toolbar__label"> newest</span>
      </button>
      {open ? (
        <TraceList
          traces={traces}
          shownId={traceId}
          onPick={(id) => {
            selectTrace(id);
            close();
          }}
          onClose={close}
        />
      ) : null}
      <TraceActions />
      {importing ? (
        <progress
          aria-label={`Importing ${importing.fileName}`}
          max={importing.total}
          value={importing.done}
        />
      ) : null}
    </fieldset>
  );
}
