/** The analysis worker's entry point (worker-analysis.ts starts it for each imported file). */

import { serveAnalysis } from "./analysis-service.js";
import type { AnalysisPort, FromAnalysis, ToAnalysis } from "./analysis-wire.js";

serveAnalysis(self as unknown as AnalysisPort<ToAnalysis, FromAnalysis>);
