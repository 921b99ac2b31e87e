/** Cutting newline-delimited text (NDJSON, a child's stderr) that arrives in pieces into whole lines. */

/**
 * Cuts text, given a piece at a time, into its lines (without the "\n"). A piece's lines are cut
 * from the piece itself and only the part line left from the piece before is joined to its first,
 * so a long stream is not copied again on every piece. `maxCarry` bounds the part line kept
 * between pieces (the rest of an overlong line is dropped): text from a peer cannot grow it.
 */
export class LineCutter {
  private carry = "";

  constructor(private readonly maxCarry = Number.POSITIVE_INFINITY) {}

  /** The lines `text` completes, in order (none when it holds no line break). */
  push(text: string): string[] {
    const last = text.lastIndexOf("\n");
    if (last === -1) {
      this.carry = this.bounded(this.carry + text);
      return [];
    }
    const lines = text.slice(0, last).split("\n");
    if (this.carry !== "") lines[0] = this.carry + lines[0];
    this.carry = this.bounded(text.slice(last + 1));
    return lines;
  }

  /** The text after the last line break (the last line, when the stream does not end with one); clears it. */
  end(): string {
    const rest = this.carry;
    this.carry = "";
    return rest;
  }

  private bounded(text: string): string {
    return text.length > this.maxCarry ? text.slice(0, this.maxCarry) : text;
  }
}
