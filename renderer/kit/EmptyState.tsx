/**
 * Every screen explains itself: what this area shows, why it is empty, and what to do next.
 * `FirstSteps` is the start screen's list: the first three things to do, with the real commands.
 */
import { FolderOpen, Play, Plug } from "lucide-react";
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

/** The three ways to get a first trace on screen. `demoHere`: this hub runs the built-in demo. */
export function FirstSteps({ demoHere }: { demoHere: boolean }) {
  return (
    <ol className="first-steps" aria-label="First steps">
      <li className="first-steps__step">
        <Play className="first-steps__icon" aria-hidden="true" />
        <div>
          <h3>Watch the built-in demo</h3>
          {demoHere ? (
            <p>This hub runs it: press Play on a scenario above. Each one tells an RFD story step by step.</p>
          ) : (
            <p>
              Run <code>acp-retry-inspector serve --demo</code> and open the link it prints: a reference
              agent, a client and four RFD stories to play.
            </p>
          )}
        </div>
      </li>
      <li className="first-steps__step">
        <Plug className="first-steps__icon" aria-hidden="true" />
        <div>
          <h3>Put the tap in front of your agent</h3>
          <p>
            Where your editor runs <code>my-agent --acp</code>, make it run{" "}
            <code>acp-retry-inspector proxy -- my-agent --acp</code>. The tap finds this hub by itself and its
            session appears here live.
          </p>
        </div>
      </li>
      <li className="first-steps__step">
        <FolderOpen className="first-steps__icon" aria-hidden="true" />
        <div>
          <h3>Open a trace file</h3>
          <p>
            Press <strong>Import…</strong> (the folder button in the toolbar) or drop a <code>.jsonl</code> or{" "}
            <code>.har</code> file on this window. On the command line:{" "}
            <code>acp-retry-inspector analyze TRACE.jsonl</code>.
          </p>
        </div>
      </li>
    </ol>
  );
}
