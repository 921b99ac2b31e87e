/**
 * Banners over the shown trace's views: the hub gone for more than a few seconds (what still works),
 * a restarted hub refusing this window's old token (the traces stay; open the new link), the hub
 * refusing this window at its cap of UI sockets, records left out for a repeated or decreasing seq (named by
 * seq), and entries kept flagged because they are not valid records (listed in the Records tab).
 */
import { useEffect, useState } from "react";
import { useInspector } from "../model/store/inspector-store.js";

/** How long the hub may be away before the banner says so (a blip reconnects sooner). */
export const HUB_GONE_AFTER_MS = 3_000;

/** True once the connection has been "reconnecting" for `HUB_GONE_AFTER_MS`. */
function useHubGone(): boolean {
  const reconnecting = useInspector((s) => s.connection === "reconnecting" && s.wasConnected);
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (!reconnecting) return setGone(false);
    const timer = setTimeout(() => setGone(true), HUB_GONE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [reconnecting]);
  return reconnecting && gone;
}

/** The hub went away: say in words what still works and what does not, until it is back. */
function HubGoneBanner() {
  const gone = useHubGone();
  if (!gone) return null;
  return (
    <div className="trace-banners">
      <p className="banner banner--warn" role="alert">
        The hub is not answering; this window keeps trying to reconnect. What still works: the traces already
        loaded stay on screen, and you can read, search, filter and export them. What does not: live updates,
        new taps, faults and the demo, until the hub is back.
      </p>
    </div>
  );
}

/** The hub refused the token after this window had been connected: it restarted with a new token. */
function RestartedHubBanner() {
  const restarted = useInspector((s) => s.connection === "unauthorized" && s.wasConnected);
  if (!restarted) return null;
  return (
    <div className="trace-banners">
      <p className="banner banner--error" role="alert">
        The hub restarted and refused this window's link (each run makes a new token). The traces on screen
        stay; to see live taps and use faults again, open the new link printed by{" "}
        <code>acp-retry-inspector serve</code> (or the <code>url</code> in its <code>hub.json</code>).
      </p>
    </div>
  );
}

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
      <HubGoneBanner />
      <RestartedHubBanner />
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
