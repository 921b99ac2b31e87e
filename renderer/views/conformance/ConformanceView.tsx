/**
 * The Conformance tab: the suite runner (when the hub offers one) above the RFD verdict checklist
 * of the shown trace.
 */
import { useInspector } from "../../model/store/inspector-store.js";
import { ConformanceRunner } from "./ConformanceRunner.js";
import { StressSection } from "./StressSection.js";
import { VerdictChecklist } from "./VerdictChecklist.js";
import "./conformance.css";

/** The Conformance tab's content. */
export function ConformanceView() {
  const board = useInspector((s) => s.conformance);
  return (
    <div className="conformance">
      {board ? (
        <>
          <ConformanceRunner board={board} />
          <StressSection board={board} />
        </>
      ) : (
        <p className="muted">
          This hub runs no conformance suite. Start the app or <code>acp-retry-inspector serve</code> to run
          it from here, or use <code>acp-retry-inspector conformance -- &lt;agent command&gt;</code>.
        </p>
      )}
      <VerdictChecklist />
    </div>
  );
}
