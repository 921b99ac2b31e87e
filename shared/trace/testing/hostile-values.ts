/**
 * Values a peer or a file can send, for the fuzz suites (issue 31): JSON of any shape, objects
 * named like Object.prototype's members, nesting from 1 to 100,000 deep, lone surrogates and text
 * decoded from bytes that are not UTF-8.
 */
import fc from "fast-check";

/**
 * Depths the fuzzed values take: shallow, past the walkers' bound (512), past the old stack limit.
 * Depth 10^5 costs a few hundred ms per walk, so it has deterministic cases of its own.
 */
export const DEPTHS = [1, 40, 600, 8_000] as const;

/** The deepest case, run once per walker rather than per fuzz run. */
export const DEEPEST = 100_000;

/** `depth` arrays (or objects) inside each other, as JSON text. */
export function nestedText(depth: number, kind: "array" | "object" = "array"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`;
}

/** Objects whose keys shadow Object.prototype (parsed from JSON, as the wire gives them). */
export const PROTO_OBJECTS: readonly unknown[] = [
  JSON.parse('{"__proto__":{"polluted":1},"a":1}'),
  JSON.parse('{"toString":0,"valueOf":0}'),
  JSON.parse('{"constructor":{"prototype":{"x":1}}}'),
  JSON.parse('{"hasOwnProperty":"no","length":-1}'),
  JSON.parse('{"toJSON":0}'),
];

/** Text that is not valid UTF-16 or came from bytes that are not UTF-8. */
export const BAD_TEXT: readonly string[] = [
  "\ud800",
  "a\udfffb",
  "\u0000\u202e\u2066",
  "\xff\xfe\xc3(",
  "é".repeat(3),
];

/** Any hostile value: JSON, prototype-named objects, deep nesting, bad text. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_OBJECTS) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_TEXT) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...DEPTHS), fc.constantFrom("array" as const, "object" as const))
        .map(([d, k]) => JSON.parse(nestedText(d, k)) as unknown),
    },
  );
}

/** JSON text of a hostile value (deep values are built as text: JSON.stringify would overflow). */
export function hostileText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_OBJECTS.map((o) => JSON.stringify(o))) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_TEXT) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...DEPTHS), fc.constantFrom("array" as const, "object" as const))
        .map(([d, k]) => nestedText(d, k)),
    },
  );
}

/** The fast-check parameters of every fuzz property here: seeded, bounded, a few seconds in all. */
export const FUZZ = { seed: 31, numRuns: 150 } as const;
