/**
 * The text of a TCK report file (`--tck-json`): the report as indented JSON in which no wire text
 * is raw. `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls, the bidirectional
 * marks, embeddings, overrides and isolates, and U+2028/U+2029 as they are, so an agent's error
 * text with a right-to-left override would display reversed wherever the file is shown. Those are
 * written as `\u` escapes: the file parses to the same values.
 */
import type { TckReport } from "./tck-report.js";

const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `report` as the text of a `--tck-json` file: indented JSON, controls and bidi overrides `\u`-escaped, a final newline. */
export function tckJson(report: TckReport): string {
  const text = JSON.stringify(report, null, 2).replace(
    RAW_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${text}\n`;
}
