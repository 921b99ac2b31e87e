/** The zustand slice for what the user is looking at: tab, selection, theme, notices. */
import type { StateCreator } from "zustand";

/** The main view's tabs. */
export type ViewTab = "timeline" | "sequence" | "conformance";
/** The colour theme. */
export type ThemeName = "dark" | "light";

/** A short message the toolbar shows after an action (success or failure). */
export interface Notice {
  readonly tone: "info" | "error";
  readonly text: string;
}

/** View state and its setters. */
export interface ViewSlice {
  readonly tab: ViewTab;
  readonly selectedSeq: number | undefined;
  readonly theme: ThemeName;
  readonly largeText: boolean;
  readonly redactExport: boolean;
  readonly notice: Notice | undefined;
  setTab(tab: ViewTab): void;
  select(seq: number | undefined): void;
  setTheme(theme: ThemeName): void;
  setLargeText(large: boolean): void;
  setRedactExport(redact: boolean): void;
  setNotice(notice: Notice | undefined): void;
}

/** Creates the view slice with the given starting theme. */
export const viewSlice =
  (initial: { theme: ThemeName; largeText: boolean }): StateCreator<ViewSlice, [], [], ViewSlice> =>
  (set) => ({
    tab: "timeline",
    selectedSeq: undefined,
    theme: initial.theme,
    largeText: initial.largeText,
    redactExport: true,
    notice: undefined,
    setTab: (tab) => set({ tab }),
    select: (selectedSeq) => set({ selectedSeq }),
    setTheme: (theme) => set({ theme }),
    setLargeText: (largeText) => set({ largeText }),
    setRedactExport: (redactExport) => set({ redactExport }),
    setNotice: (notice) => set({ notice }),
  });
