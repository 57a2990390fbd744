/**
 * A piece of SQL text written once and spliced into several statements (a select list, a join, a column that
 * differs between two services' tables), where SqlDatabase's and Prisma's tagged templates would send it as a
 * parameter. Its text is SQL, never a value from outside the code.
 */
export class SqlFragment {
  constructor(readonly text: string) {}
}

/**
 * Each call site's template with its fragments spliced in, made once per set of fragments: SqlDatabase names a
 * statement by the template object, so a call site stays one prepared statement for each text it makes.
 */
const spliced = new WeakMap<TemplateStringsArray, Map<string, TemplateStringsArray>>();

/**
 * A tagged template whose SqlFragment values become SQL text and the others stay parameters, as the
 * arguments of `$queryRaw`/`$executeRaw`: `db.$queryRaw(...sql\`SELECT ${COLUMNS} FROM t WHERE id = ${id}\`)`.
 * Every call with the same fragments at one call site answers the same template object.
 */
export function sql(
  strings: TemplateStringsArray,
  ...values: unknown[]
): [TemplateStringsArray, ...unknown[]] {
  const fragments = values.filter((value) => value instanceof SqlFragment).map((value) => value.text);
  const parameters = values.filter((value) => !(value instanceof SqlFragment));
  let bySet = spliced.get(strings);
  if (bySet === undefined) {
    bySet = new Map();
    spliced.set(strings, bySet);
  }
  const setKey = fragments.join('\u0000');
  let made = bySet.get(setKey);
  if (made === undefined) {
    const parts = [strings[0] ?? ''];
    values.forEach((value, index) => {
      const next = strings[index + 1] ?? '';
      if (value instanceof SqlFragment) parts[parts.length - 1] += value.text + next;
      else parts.push(next);
    });
    made = Object.assign(parts, { raw: parts });
    bySet.set(setKey, made);
  }
  return [made, ...parameters];
}
