/**
 * For tests of what the CLI prints: any character a terminal may act on instead of printing (C0
 * controls but the newline between lines, DEL, C1 controls, bidirectional overrides). Written
 * apart from `terminal-text.ts`, so a gap in its set is caught here.
 */
// biome-ignore-start lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const TERMINAL_CONTROL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The same characters, a newline included: for one value that must stay on one line. */
export const TERMINAL_CONTROL_OR_NEWLINE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: finding control characters is the point
