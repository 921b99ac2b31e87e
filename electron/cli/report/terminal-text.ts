/**
 * Moved to `electron/platform/terminal-text.ts` (the CLI, the conformance suite and the schema
 * report share it). This re-export serves the importers other work had open when it moved
 * (`commands/export.ts`, `replay.ts`, `replay-as-agent.ts`, `analyze.ts`, `schema/schema-report-text.ts`);
 * delete it once they import from platform/.
 */
export {
  type TerminalSafeOptions,
  terminalSafe,
  terminalSafeJson,
  terminalSafeJsonChunks,
} from "../../platform/terminal-text.js";
