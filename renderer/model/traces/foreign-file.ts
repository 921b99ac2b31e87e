/**
 * The import step in front of the renderer's trace reader: a file in another tool's format (detected
 * from its content) becomes our trace text; our own trace text passes through untouched. The same
 * step as the hub's `importTrace` (shared/trace/interchange/as-trace-text.ts).
 */
export { asTraceText } from "../../../shared/trace/interchange/as-trace-text.js";
