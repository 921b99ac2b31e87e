/** The zustand slice for what the user is looking at: tab, selection, expanded rows, the filter, theme, notices. */
import type { StateCreator } from "zustand";
import { type FilterPatch, NO_FILTER, patchFilter, type TimelineFilter } from "../filter/timeline-filter.js";

/** The main view's tabs. */
export type ViewTab = "timeline" | "records" | "sequence" | "latency" | "conformance" | "diff";
/** The colour theme. */
export type ThemeName = "dark" | "light";

/** A short message the toolbar shows after an action (success or failure). */
export interface Notice {
  readonly tone: "info" | "error";
  readonly text: string;
}

/** What is selected: a timeline row (by key) and the frame seq it stands for. */
export interface Selection {
  readonly key: string;
  readonly seq: number;
}

/** The last Clear: which trace's view it emptied and how many records it took out of the view. */
export interface LastClear {
  readonly traceId: string;
  readonly records: number;
}

/** View state and its setters. */
export interface ViewSlice {
  readonly tab: ViewTab;
  readonly selected: Selection | undefined;
  /** Keys of expanded timeline rows (of the shown trace). */
  readonly expanded: ReadonlySet<string>;
  /** The expanded rows of the traces not shown now, by trace id: showing one again opens them again. */
  readonly expandedByTrace: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The one filter of the Timeline, Records and Sequence views: the parsed query of their search
   * box. Showing another trace clears it (renderer/model/store/show-trace.ts).
   */
  readonly filter: TimelineFilter;
  /** Sequence: draw only the rows the filter matches (off: draw all, matches marked). */
  readonly sequenceOnlyMatches: boolean;
  readonly theme: ThemeName;
  readonly largeText: boolean;
  /** Export the full trace instead of the redacted one (off by default). */
  readonly exportFull: boolean;
  readonly notice: Notice | undefined;
  /** The last Clear, so the emptied view says what was cleared (not "No frames yet"). */
  readonly lastClear: LastClear | undefined;
  setTab(tab: ViewTab): void;
  select(selection: Selection | undefined): void;
  setExpanded(key: string, open: boolean): void;
  /** `{ text }` replaces the whole query; a field (`{ verdict: "single" }`) sets that field's term in it. */
  setFilter(patch: FilterPatch): void;
  setSequenceOnlyMatches(on: boolean): void;
  setTheme(theme: ThemeName): void;
  setLargeText(large: boolean): void;
  setExportFull(full: boolean): void;
  setNotice(notice: Notice | undefined): void;
  setLastClear(clear: LastClear | undefined): void;
}

/** Creates the view slice with the given starting theme. */
export const viewSlice =
  (initial: { theme: ThemeName; largeText: boolean }): StateCreator<ViewSlice, [], [], ViewSlice> =>
  (set) => ({
    tab: "timeline",
    selected: undefined,
    expanded: new Set(),
    expandedByTrace: new Map(),
    filter: NO_FILTER,
    sequenceOnlyMatches: false,
    theme: initial.theme,
    largeText: initial.largeText,
    exportFull: false,
    notice: undefined,
    lastClear: undefined,
    setTab: (tab) => set({ tab }),
    select: (selected) => set({ selected }),
    setExpanded: (key, open) =>
      set((s) => {
        if (s.expanded.has(key) === open) return {};
        const expanded = new Set(s.expanded);
        if (open) expanded.add(key);
        else expanded.delete(key);
        return { expanded };
      }),
    setFilter: (patch) => set((s) => ({ filter: patchFilter(s.filter, patch) })),
    setSequenceOnlyMatches: (sequenceOnlyMatches) => set({ sequenceOnlyMatches }),
    setTheme: (theme) => set({ theme }),
    setLargeText: (largeText) => set({ largeText }),
    setExportFull: (exportFull) => set({ exportFull }),
    setNotice: (notice) => set({ notice }),
    setLastClear: (lastClear) => set({ lastClear }),
  });
