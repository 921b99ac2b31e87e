/** The diff of a submission's attempts' params: one row per path whose value differs. */

import { visibleText } from "../../model/text/visible-text.js";
import type { ParamsDifference } from "../../model/timeline/params-diff.js";

/** The diff table, or a sentence saying every attempt sent the same params. */
export function ParamsDiffView({ diff, attempts }: { diff: readonly ParamsDifference[]; attempts: number }) {
  if (attempts < 2) return <p className="muted">One attempt: nothing to compare.</p>;
  if (diff.length === 0) return <p>All {attempts} attempts sent identical params.</p>;
  const prompt = diff.some((d) => d.prompt);
  return (
    <>
      {prompt ? (
        <p className="diff-warning" role="alert">
          Same key, different prompt: the Client changed the prompt between attempts.
        </p>
      ) : null}
      <table className="diff" aria-label="Params that differ between attempts">
        <thead>
          <tr>
            <th scope="col">Path</th>
            {Array.from({ length: attempts }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: attempt columns are positional.
              <th key={i} scope="col">
                Attempt {i + 1}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {diff.map((d) => (
            <tr key={d.path} className={d.prompt ? "diff__row--prompt" : undefined}>
              <th scope="row">
                <code>{visibleText(d.path)}</code>
              </th>
              {d.values.map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: attempt columns are positional.
                <td key={i}>
                  <code>{v === undefined || v === null ? "(absent)" : visibleText(v)}</code>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
