/** An error's name and message for a one-line warning, cut to 120 characters (never the stack). */
export function errorWords(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
