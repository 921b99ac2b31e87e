/**
 * The scenario player: the RFD stories with their summaries, Play, auto-advance at a presenter's
 * speed or Next step by hand, the current caption in large text with the RFD sentence it shows,
 * and "Step 2 of 4". Presenter mode (demo.css) shows each Play button as "▶" and the scenario's
 * short name instead of its title and summary, which are the button's tooltip. Pure: props in, callbacks out.
 */
import { useState } from "react";
import type { ScenarioProgress } from "../../../shared/demo/demo-wire.js";
import type { Scenario } from "../../../shared/demo/scenario.js";
import { describePhase } from "../../../shared/demo/scenario-runner.js";

/** What the player shows and what it can ask for. */
export interface ScenarioPlayerProps {
  readonly scenarios: readonly Scenario[];
  readonly progress: ScenarioProgress | null;
  /** False while the demo cannot play (starting, failed). */
  readonly enabled: boolean;
  /** True when the views show another trace than the demo's: the caption is not about what they show. */
  readonly elsewhere?: boolean;
  /** True while the demo is folded: one line for the stories, the caption and the client. */
  readonly folded?: boolean;
  onFold?(folded: boolean): void;
  onPlay(id: string, stepDelayMs: number | null): void;
  onNext(): void;
  onStop(): void;
}

/** Presenter speeds: pause after each step, or wait for Next. */
export const SPEEDS: readonly { readonly label: string; readonly ms: number | null }[] = [
  { label: "By hand (Next step)", ms: null },
  { label: "Slow (12 s per step)", ms: 12_000 },
  { label: "Reading speed (8 s per step)", ms: 8_000 },
  { label: "Fast (4 s per step)", ms: 4_000 },
  { label: "No pause", ms: 0 },
];

function Caption({
  progress,
  elsewhere,
  onNext,
  onStop,
}: Pick<ScenarioPlayerProps, "onNext" | "onStop" | "elsewhere"> & { progress: ScenarioProgress }) {
  const over = ["finished", "stopped", "failed"].includes(progress.phase);
  const canNext =
    progress.phase === "shown" && progress.stepDelayMs === null && progress.step < progress.steps - 1;
  return (
    <section className={`scenario-caption scenario-caption--${progress.phase}`} aria-label="Scenario caption">
      <header>
        <span className="scenario-caption__where">
          <strong>{progress.title}</strong> ·{" "}
          <span>
            Step {progress.step + 1} of {progress.steps}
          </span>
        </span>
        <span className="scenario-caption__buttons">
          <button type="button" disabled={!canNext} onClick={onNext}>
            Next step
          </button>
          <button type="button" disabled={over} onClick={onStop}>
            Stop
          </button>
        </span>
      </header>
      <p className="scenario-caption__text" aria-live="polite">
        {progress.caption}
      </p>
      {progress.rfd && <blockquote className="scenario-caption__rfd">RFD: “{progress.rfd}”</blockquote>}
      <p className="scenario-caption__state" role="status">
        <span className="scenario-caption__progress">{describePhase(progress)}</span>
        {progress.expectation && progress.phase !== "failed" ? (
          <>
            {" · "}
            <span className="scenario-caption__expectation">{progress.expectation}</span>
          </>
        ) : null}
      </p>
      {elsewhere ? (
        <p className="scenario-caption__elsewhere" role="note">
          The views show another trace: this caption is about the demo's own trace (Follow newest shows it).
        </p>
      ) : null}
    </section>
  );
}

/** The player. */
export function ScenarioPlayer({
  scenarios,
  progress,
  enabled,
  elsewhere,
  folded,
  onFold,
  onPlay,
  onNext,
  onStop,
}: ScenarioPlayerProps) {
  const [speed, setSpeed] = useState(2);
  const delay = SPEEDS[speed]?.ms ?? null;
  return (
    <section className="scenario-player" aria-label="Scenarios">
      {progress && <Caption progress={progress} elsewhere={elsewhere} onNext={onNext} onStop={onStop} />}
      <div className="scenario-player__list">
        {onFold ? (
          <button
            type="button"
            className="scenario-player__fold"
            aria-expanded={!folded}
            title={
              folded
                ? "Show the stories' summaries, the whole caption and the demo client's form"
                : "Fold the demo to one line each: the stories, the caption, the demo client's status"
            }
            onClick={() => onFold(!folded)}
          >
            {folded ? "Demo ▸" : "Demo ▾"}
          </button>
        ) : null}
        <label>
          Speed{" "}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
            {SPEEDS.map((s, i) => (
              <option key={s.label} value={i}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <ul>
          {scenarios.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                disabled={!enabled}
                aria-label={`Play ${s.title}`}
                title={`${s.title}: ${s.summary}`}
                onClick={() => onPlay(s.id, delay)}
              >
                <span className="scenario-player__verb">Play</span>
                <span className="scenario-player__short">{s.short}</span>
              </button>{" "}
              <strong>{s.title}</strong> <span className="muted">{s.summary}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
