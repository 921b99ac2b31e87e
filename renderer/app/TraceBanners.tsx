/**
 * Banners over the shown trace's views: the hub refusing this window at its cap of UI sockets, records left out for a repeated or decreasing seq (named by
 * seq), and entries kept flagged because they are not valid records (listed in the Records tab).
 */
import { useInspector } from "../model/store/inspector-store.js";

/** The hub refused this window's socket at its cap of UI connections: say so, plainly. */
function RefusedBanner() {
  const refused = useInspector((s) => s.connection === "refused-full");
  if (!refused) return null;
  return (
    <div className="trace-banners">
      <p className="banner banner--error" role="alert">
        The hub refused this window: it already has as many UI connections as it takes (its limit). Close
        another inspector window or tab; this one keeps trying and connects once there is room.
      </p>
    </div>
  );
}

/** The shown trace's warnings, one banner each; nothing when the trace is sound. */
export function TraceBanners() {
  return (
    <>
      <RefusedBanner />
      <SeqAndFlagBanners />
    </>
  );
}

function SeqAndFlagBanners() {
  const seqIssues = useInspector((s) => s.view.seqIssues);
  const seqs = useInspector((s) => s.view.seqIssueSeqs);
  const flagged = useInspector((s) => s.view.flagged);
  const invalid = flagged - seqIssues;
  if (seqIssues === 0 && invalid <= 0) return null;
  return (
    <div className="trace-banners">
      {seqIssues > 0 ? (
        <p className="banner banner--warn" role="alert">
          {`${seqIssues} record${seqIssues === 1 ? " has a" : "s have a"} repeated or decreasing seq and ${seqIssues === 1 ? "was" : "were"} left out of the analysis: seq ${seqs.join(", ")}${seqIssues > seqs.length ? ", …" : ""}.`}
        </p>
      ) : null}
      {invalid > 0 ? (
        <p className="banner banner--error" role="alert">
          {`${invalid} entr${invalid === 1 ? "y is" : "ies are"} not a valid record and ${invalid === 1 ? "is" : "are"} kept flagged, not analysed: they are listed first in the Records tab.`}
        </p>
      ) : null}
    </div>
  );
}
