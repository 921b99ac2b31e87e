/**
 * The app's Sequence view: SequenceView with the shared filter (the same query as the Timeline and
 * Records), its "Only matching rows" toggle, and a submission jump that also selects the
 * submission's Timeline row.
 */
import { useCallback, useMemo } from "react";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { FilterBox } from "../../kit/FilterBox.js";
import { matchRecords } from "../../model/filter/record-filter.js";
import { isFiltering, NO_FILTER } from "../../model/filter/timeline-filter.js";
import { useInspector } from "../../model/store/inspector-store.js";
import { SequenceView, type SequenceViewProps } from "./SequenceView.js";

/** SequenceView fed by the store's filter. */
export function FilteredSequence(props: SequenceViewProps) {
  const filter = useInspector((s) => s.filter);
  const setFilter = useInspector((s) => s.setFilter);
  const view = useInspector((s) => s.view);
  const onlyMatches = useInspector((s) => s.sequenceOnlyMatches);
  const setOnlyMatches = useInspector((s) => s.setSequenceOnlyMatches);
  const select = useInspector((s) => s.select);
  const filtering = isFiltering(filter);
  const { records } = props;
  const match = useMemo(
    () => (filtering ? matchRecords(records, view, filter) : null),
    [filtering, records, view, filter],
  );
  const onJump = useCallback((sub: Submission, seq: number) => select({ key: `s${sub.id}`, seq }), [select]);
  return (
    <SequenceView
      {...props}
      match={match}
      onlyMatches={onlyMatches}
      onOnlyMatchesChange={setOnlyMatches}
      onJumpToSubmission={onJump}
      filterBar={
        <search className="view-filter" aria-label="Sequence filter">
          <FilterBox placeholder="text in frames, or method:session/prompt -verdict:single" />
          <button type="button" disabled={filter.text === ""} onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        </search>
      }
    />
  );
}
