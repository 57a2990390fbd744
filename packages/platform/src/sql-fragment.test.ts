import { sql, SqlFragment } from './sql-fragment';

const COLUMNS = new SqlFragment('id, name');
const select = (id: string, limit: number) => sql`SELECT ${COLUMNS} FROM t WHERE id = ${id} LIMIT ${limit}`;

describe('sql', () => {
  it('splices fragments into the text and keeps the other values as parameters', () => {
    const [strings, ...values] = select('a', 5);
    expect([...strings]).toEqual(['SELECT id, name FROM t WHERE id = ', ' LIMIT ', '']);
    expect(values).toEqual(['a', 5]);
  });

  it('answers one template per call site, so that it stays one prepared statement', () => {
    expect(select('a', 1)[0]).toBe(select('b', 2)[0]);
  });

  it('answers one template per call site and set of fragments, each with its own text', () => {
    const at = (fragment: SqlFragment, id: string) => sql`SELECT ${fragment} FROM t WHERE id = ${id}`;
    const [columns] = at(COLUMNS, 'a');
    const [other] = at(new SqlFragment('other'), 'b');
    expect(other).not.toBe(columns);
    expect([...other]).toEqual(['SELECT other FROM t WHERE id = ', '']);
    expect(at(new SqlFragment('other'), 'c')[0]).toBe(other);
    expect(at(COLUMNS, 'd')[0]).toBe(columns);
  });
});
