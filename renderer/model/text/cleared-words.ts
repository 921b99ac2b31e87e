/** What Clear says it did: how many records left this view, and that the trace file keeps them. */
export function clearedWords(records: number): string {
  return `Cleared ${records} record${records === 1 ? "" : "s"} from this view; the trace file keeps them`;
}
