/** The confirmation shown before the Conformance tab starts a command it did not ship with. */
import type { ConformanceBoard } from "../../shared/conformance/conformance-run.js";
import { visibleText } from "../model/text/visible-text.js";

type Choice = ConformanceBoard["choices"][number];

/** "This starts <command> … with your user's rights, <how often>. It was named by …", then Run it / Back. */
export function CommandConfirm({
  label,
  chosen,
  howOften,
  onRun,
  onBack,
}: {
  readonly label: string;
  readonly chosen: Choice;
  readonly howOften: string;
  onRun(): void;
  onBack(): void;
}) {
  return (
    <div className="confirm" role="alertdialog" aria-label={label}>
      <p>
        This starts <code>{visibleText(chosen.target)}</code>
        {chosen.cwd ? ` in ${visibleText(chosen.cwd)}` : ""} with your user's rights, {howOften}. It was named
        by {chosen.source === "argv" ? "the command line" : "your local agents file"}.
      </p>
      <button type="button" onClick={onRun}>
        Run it
      </button>{" "}
      <button type="button" onClick={onBack}>
        Back
      </button>
    </div>
  );
}
