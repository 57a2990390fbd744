import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Where a prepared query's value goes: an object Kysely passes through as a parameter, found again by name. */
class Slot {
  constructor(readonly name: string) {}
}

/** What runs a compiled statement: a Database or one of its transactions. */
type Executor = Pick<Kysely<unknown>, 'executeQuery'>;

/**
 * A statement built and compiled once, on its first run, then only given its values. Building and compiling a
 * large statement (a CTE that writes several tables) costs Kysely tens of microseconds of CPU each time, where
 * binding costs one. `build` receives `param(name)`, which stands for that value of each run; the statement's
 * shape must not depend on the values (lists go as one array parameter).
 */
export class PreparedQuery<Params extends object, Row> {
  private compiled: CompiledQuery<Row> | undefined;
  private slots: (Slot | undefined)[] = [];

  constructor(
    private readonly build: (
      param: <K extends keyof Params & string>(name: K) => Params[K],
    ) => Compilable<Row>,
  ) {}

  async execute(db: Executor, params: Params): Promise<Row[]> {
    const compiled = this.compiledOnce();
    const values = params as Record<string, unknown>;
    const parameters = compiled.parameters.map((value, index) => {
      const slot = this.slots[index];
      return slot === undefined ? value : values[slot.name];
    });
    const result: QueryResult<Row> = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  }

  private compiledOnce(): CompiledQuery<Row> {
    if (this.compiled === undefined) {
      const compiled = this.build((name) => new Slot(name) as never).compile();
      this.slots = compiled.parameters.map((value) => (value instanceof Slot ? value : undefined));
      this.compiled = compiled;
    }
    return this.compiled;
  }
}
