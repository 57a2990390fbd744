import fc from 'fast-check';

/** C0 controls, DEL and C1 controls: what no form field may hold. */
const CONTROL = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
  .map((code) => String.fromCharCode(code));

const PRINTABLE = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

/**
 * One form field's value as a browser (or a script posing as one) may send it: ordinary text, empty, only
 * spaces, with NUL or another control character, huge (past every field's bound, some past the body limit),
 * or one of the few values a field expects, so that some submissions get past the first checks.
 */
export function formValue(expected: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    PRINTABLE,
    fc.constantFrom('', ' ', '\t', '0', '-1', '1e9', 'yes', 'null', '<script>', "'; --"),
    fc.tuple(PRINTABLE, CONTROL, PRINTABLE).map(([before, control, after]) => `${before}${control}${after}`),
    fc.constantFrom('\u0000', 'a\u0000b@example.com', '\u001b[31m', 'line\r\nBcc: x@example.com'),
    fc.integer({ min: 1_000, max: 20_000 }).map((length) => 'x'.repeat(length)),
    ...(expected.length > 0 ? [fc.constantFrom(...expected)] : []),
  );
}

/**
 * The fields of a form: each known field present with a generated value or absent, plus a few unknown
 * fields (names a form never has, including a prototype's).
 */
export function formFields(
  fields: Readonly<Record<string, readonly string[]>>,
): fc.Arbitrary<Record<string, string>> {
  const known = Object.fromEntries(
    Object.entries(fields).map(([name, expected]) => [
      name,
      fc.option(formValue(expected), { nil: undefined }),
    ]),
  );
  const unknown = fc.dictionary(
    fc.oneof(fc.constantFrom('__proto__', 'constructor', 'x[y]', 'a.b', ''), fc.string({ maxLength: 10 })),
    formValue(),
    { maxKeys: 3 },
  );
  return fc.tuple(fc.record(known), unknown).map(([present, extra]) => {
    const body: Record<string, string> = {};
    for (const [name, value] of [...Object.entries(extra), ...Object.entries(present)]) {
      if (value !== undefined) Object.defineProperty(body, name, { value, enumerable: true, writable: true });
    }
    return body;
  });
}

/** A fuzz run's seed and size: FUZZ_SEED replays a run, FUZZ_RUNS sizes it; printed so a failure is replayed. */
export function fuzzSettings(name: string, defaultRuns: number): { seed: number; numRuns: number } {
  const seed = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
  const numRuns = Number(process.env['FUZZ_RUNS'] ?? defaultRuns);
  // eslint-disable-next-line no-console -- the seed replays a failure: FUZZ_SEED=<seed>
  console.log(`${name} seed: FUZZ_SEED=${seed} (FUZZ_RUNS=${numRuns})`);
  return { seed, numRuns };
}
