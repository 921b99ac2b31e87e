/**
 * Terminal-safe text: what the CLI prints may hold text that came from the wire (prompts, method
 * names, keys, error messages, an agent's name), and a terminal obeys escape sequences in it
 * (`ESC[2J` clears the screen, OSC 52 writes the clipboard, `ESC[8m` hides what follows). Every
 * control character is shown escaped instead: C0 controls (`\n`, `\r`, `\t` and `\x1b` ...), DEL,
 * C1 controls (`\x9b` is a one-character CSI for some terminals), the bidirectional overrides
 * that reorder what a line appears to say, and the Unicode line and paragraph separators.
 */

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: finding control characters is the point
/** Every character `terminalSafe` escapes (newline included; see `keepNewlines`). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same set minus C0 controls, which `JSON.stringify` already escapes. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: finding control characters is the point

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
}

/** Options of `terminalSafe`. */
export interface TerminalSafeOptions {
  /** Keep `\n` as a line break (free text such as an error message with its help); default: escape it. */
  readonly keepNewlines?: boolean;
}

/**
 * `text` with every control character escaped (`ESC` becomes the four characters `\x1b`), so it
 * prints as the text it is. By default a newline is escaped too, so one value stays one line of a
 * report or one cell of a table.
 */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  return text.replace(options.keepNewlines ? UNSAFE_BUT_NEWLINE : UNSAFE, escapeOne);
}

/**
 * `JSON.stringify(value, null, space)` that is also terminal safe: the characters `JSON.stringify`
 * leaves raw (DEL, C1 controls, bidirectional overrides, U+2028/U+2029) are written as `\u` escapes,
 * so the text is still JSON and parses to the same value.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Values nested at most this deep are written piece by piece by `terminalSafeJsonChunks`. */
const STREAMED_DEPTH = 2;

/**
 * The text of `terminalSafeJson(value, space)`, character for character, in pieces: objects and
 * arrays down to `STREAMED_DEPTH` are written member by member, so a document larger than the
 * longest string a JavaScript engine can hold (about 512 MiB of text in V8) can still be printed.
 */
export function* terminalSafeJsonChunks(value: unknown, space: number, depth = 0): Generator<string> {
  const indent = " ".repeat(space * depth);
  const inner = " ".repeat(space * (depth + 1));
  const plain =
    value !== null &&
    typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
  if (!plain || depth >= STREAMED_DEPTH || space <= 0) {
    const text = terminalSafeJson(value, space);
    yield depth === 0 || text === undefined ? text : text.replaceAll("\n", `\n${indent}`);
    return;
  }
  const array = Array.isArray(value);
  const members: [string | undefined, unknown][] = array
    ? (value as unknown[]).map((v) => [
        undefined,
        v === undefined || typeof v === "function" || typeof v === "symbol" ? null : v,
      ])
    : Object.entries(value as Record<string, unknown>).filter(
        ([, v]) => v !== undefined && typeof v !== "function" && typeof v !== "symbol",
      );
  if (members.length === 0) {
    yield array ? "[]" : "{}";
    return;
  }
  yield array ? "[" : "{";
  let first = true;
  for (const [key, member] of members) {
    yield `${first ? "" : ","}\n${inner}${key === undefined ? "" : `${terminalSafeJson(key)}: `}`;
    first = false;
    yield* terminalSafeJsonChunks(member, space, depth + 1);
  }
  yield `\n${indent}${array ? "]" : "}"}`;
}
