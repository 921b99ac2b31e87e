/** The tool version, injected at build time from package.json (falls back to "dev" when run from source). */
export const TOOL_VERSION: string = typeof __TOOL_VERSION__ === "string" ? __TOOL_VERSION__ : "dev";
declare const __TOOL_VERSION__: string | undefined;
