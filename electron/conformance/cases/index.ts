/** Every case script, by name. */

import type { CaseName } from "../../../shared/conformance/conformance-result.js";
import { cancelHeld } from "./cancel-held.js";
import type { ConformanceCase } from "./conformance-case.js";
import { differentPrompt } from "./different-prompt.js";
import { keyValidation } from "./key-validation.js";
import { keysPrivate } from "./keys-private.js";
import { retryAfterError } from "./retry-after-error.js";
import { retryAfterRestart } from "./retry-after-restart.js";
import { retryAfterResume } from "./retry-after-resume.js";
import { retryDuringActiveWork } from "./retry-during-active-work.js";
import { retrySameConnection } from "./retry-same-connection.js";
import { retryWhileHeld } from "./retry-while-held.js";
import { sameKeyOtherSession } from "./same-key-other-session.js";

/** The script of each case in `shared/conformance/case-catalogue.ts`. */
export const CASE_SCRIPTS: Readonly<Record<CaseName, ConformanceCase>> = {
  "key-validation": keyValidation,
  "retry-same-connection": retrySameConnection,
  "retry-after-resume": retryAfterResume,
  "retry-after-restart": retryAfterRestart,
  "retry-while-held": retryWhileHeld,
  "cancel-held": cancelHeld,
  "retry-after-error": retryAfterError,
  "same-key-other-session": sameKeyOtherSession,
  "retry-during-active-work": retryDuringActiveWork,
  "keys-private": keysPrivate,
  "different-prompt": differentPrompt,
};
