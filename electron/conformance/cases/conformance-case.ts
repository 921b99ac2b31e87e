/** The shape of one case's script. */

import type { CaseName } from "../../../shared/conformance/conformance-result.js";
import type { CaseContext } from "../case-context.js";

/** One scripted client session; resolves to the pass reason, throws `CaseFailure`/`CaseSkip` otherwise. */
export interface ConformanceCase {
  readonly name: CaseName;
  run(ctx: CaseContext): Promise<string>;
}
