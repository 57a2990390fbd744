import { sql, type AliasedRawBuilder } from 'kysely';

/** One column of rows given as an array: its Postgres element type and its values, one a row. */
export interface ArrayColumn<T> {
  type: 'text' | 'int' | 'jsonb' | 'timestamptz';
  values: readonly T[];
}

/**
 * `unnest((SELECT $1::text[]), …) AS alias (column, …)`: rows given as parallel arrays, for a statement that
 * writes any number of them. One statement text whatever their number, and each array is a sub-select so that
 * Postgres plans the statement once per connection (a generic plan) instead of by the arrays' lengths.
 */
export function unnestedRows<Row, Alias extends string>(
  alias: Alias,
  columns: { [Column in keyof Row]: ArrayColumn<Row[Column]> },
): AliasedRawBuilder<Row, Alias> {
  const names = Object.keys(columns) as (keyof Row & string)[];
  const arrays = names.map((name) => {
    const { type, values } = columns[name];
    return sql`(SELECT ${values}::${sql.raw(type)}[])`;
  });
  return sql<Row>`unnest(${sql.join(arrays)})`.as<Alias>(
    sql`${sql.id(alias)} (${sql.join(names.map((name) => sql.id(name)))})`,
  );
}
