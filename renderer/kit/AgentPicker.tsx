/**
 * Picks the agent under test among the hub's choices, grouped by where they come from, and shows
 * exactly what will be started (command line and folder, or URL). The chosen name is whole: the
 * picker takes the width it needs up to the view's (conformance.css), and where a name is longer
 * than that its tooltip has it whole. Pure: props in, callbacks out.
 */
import type { AgentChoice, AgentChoiceSource } from "../../shared/conformance/conformance-run.js";
import { visibleText } from "../model/text/visible-text.js";

/** What the picker shows. */
export interface AgentPickerProps {
  readonly choices: readonly AgentChoice[];
  readonly value: string | undefined;
  readonly disabled: boolean;
  onChange(id: string): void;
  /** The picker's label (two pickers on one tab need two names). */
  readonly label?: string;
}

const GROUPS: readonly { readonly source: AgentChoiceSource; readonly label: string }[] = [
  { source: "built-in", label: "Built-in demo agent" },
  { source: "argv", label: "From the command line" },
  { source: "config", label: "From the local agents file" },
];

/** The agent picker and the chosen agent's command. */
export function AgentPicker({
  choices,
  value,
  disabled,
  onChange,
  label = "Agent under test",
}: AgentPickerProps) {
  const chosen = choices.find((c) => c.id === value);
  return (
    <div className="agent-picker">
      <label>
        {label}{" "}
        <select
          aria-label={label}
          title={chosen ? visibleText(chosen.label) : undefined}
          value={value ?? ""}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {GROUPS.map((g) => {
            const inGroup = choices.filter((c) => c.source === g.source);
            return inGroup.length === 0 ? null : (
              <optgroup key={g.source} label={g.label}>
                {inGroup.map((c) => (
                  <option key={c.id} value={c.id}>
                    {visibleText(c.label)}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
      </label>
      {chosen ? (
        <p className="agent-picker__target">
          <span className="muted">{chosen.target.includes("://") ? "dials " : "runs "}</span>
          <code data-testid="agent-target">{visibleText(chosen.target)}</code>
          {chosen.cwd ? <span className="muted"> in {visibleText(chosen.cwd)}</span> : null}
          {chosen.note ? <span className="muted"> · {visibleText(chosen.note)}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
