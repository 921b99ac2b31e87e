/**
 * Whether the fault drawer under the toolbar is open. It starts closed at every window size (the
 * views get the rows); the toolbar's Faults toggle and a row's fault menu open it.
 */
import { createStore } from "zustand";

/** The fault drawer: open or closed. */
export const faultDrawer = createStore<{ open: boolean; setOpen(open: boolean): void }>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
