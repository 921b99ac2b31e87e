/** A verdict in full: what happened, why it matters, and the RFD rule it cites, verbatim. */
import type { VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import { verdictDefinition } from "../../../shared/analyzer/verdicts.js";
import { FoldedText } from "../../kit/FoldedText.js";
import { VerdictBadges } from "../timeline/timeline-cells.js";

/** One verdict with its explanation and citation. */
export function VerdictExplanation({ hit }: { hit: VerdictHit }) {
  const d = verdictDefinition(hit.name);
  return (
    <article className="verdict" aria-label={`Verdict ${hit.name}`}>
      <h4>
        <VerdictBadges verdicts={[hit]} /> <span className="muted">({d.severity})</span>
      </h4>
      <p>
        <FoldedText text={hit.detail} />
      </p>
      <p className="muted">{d.explanation}</p>
      <blockquote cite="rfd-v2-idempotency-keys">
        <p>{d.rule}</p>
        <footer>ACP v2 “Idempotency Keys” RFD</footer>
      </blockquote>
      {hit.seqs.length > 0 ? (
        <p className="muted">Frames: {hit.seqs.map((s) => `#${s}`).join(", ")}</p>
      ) : null}
    </article>
  );
}
