/**
 * A piece of SQL text written once and spliced into several statements (a select list, a join), where
 * SqlDatabase's and Prisma's tagged templates would send it as a parameter.
 */
export class SqlFragment {
  constructor(readonly text: string) {}
}

/** Each call site's template with its fragments spliced in, made once: SqlDatabase names a statement by it. */
const spliced = new WeakMap<TemplateStringsArray, { fragments: string[]; strings: TemplateStringsArray }>();

/**
 * A tagged template whose SqlFragment values become SQL text and the others stay parameters, as the
 * arguments of `$queryRaw`/`$executeRaw`: `db.$queryRaw(...sql\`SELECT ${COLUMNS} FROM t WHERE id = ${id}\`)`.
 * The spliced template is the same object on every call from one call site, so it is still one prepared
 * statement; a call site must always splice the same fragments.
 */
export function sql(
  strings: TemplateStringsArray,
  ...values: unknown[]
): [TemplateStringsArray, ...unknown[]] {
  const fragments = values.filter((value) => value instanceof SqlFragment).map((value) => value.text);
  const parameters = values.filter((value) => !(value instanceof SqlFragment));
  let made = spliced.get(strings);
  if (made === undefined) {
    const parts = [strings[0] ?? ''];
    values.forEach((value, index) => {
      const next = strings[index + 1] ?? '';
      if (value instanceof SqlFragment) parts[parts.length - 1] += value.text + next;
      else parts.push(next);
    });
    made = { fragments, strings: Object.assign(parts, { raw: parts }) };
    spliced.set(strings, made);
  } else if (made.fragments.join('\u0000') !== fragments.join('\u0000')) {
    throw new Error('a call site of sql`…` spliced other fragments than on its first call');
  }
  return [made.strings, ...parameters];
}
