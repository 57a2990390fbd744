import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Where a prepared query's value goes: an object Kysely passes through as a parameter, found again by path. */
class Slot {
  constructor(readonly path: readonly string[]) {}
}

/** A slot whose properties are slots too (`values.added.id`), for values given as objects of arrays. */
function slotAt(path: readonly string[]): unknown {
  return new Proxy(new Slot(path), {
    get: (target, key) =>
      typeof key === 'string' && !(key in target) ? slotAt([...path, key]) : Reflect.get(target, key),
  });
}

function valueAt(params: object, path: readonly string[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], params);
}

/** What runs a compiled statement: a Database or one of its transactions. */
type Executor = Pick<Kysely<unknown>, 'executeQuery'>;

/**
 * A statement built and compiled once, on its first run, then only given its values. Building and compiling a
 * large statement (a CTE that writes several tables) costs Kysely tens of microseconds of CPU each time, where
 * binding costs one. `build` receives `param(name)`, which stands for that value of each run, and the same as
 * an object (`values.name`), and the client of the first run to build on; the statement's shape must not
 * depend on the values (lists go as one array parameter).
 */
export class PreparedQuery<Params extends object, Row, Db extends Executor = Executor> {
  private compiled: CompiledQuery<Row> | undefined;
  private slots: (Slot | undefined)[] = [];

  constructor(
    private readonly build: (
      param: <K extends keyof Params & string>(name: K) => Params[K],
      values: Params,
      db: Db,
    ) => Compilable<Row>,
  ) {}

  async execute(db: Db, params: Params): Promise<Row[]> {
    const compiled = this.compiledOnce(db);
    const parameters = compiled.parameters.map((value, index) => {
      const slot = this.slots[index];
      return slot === undefined ? value : valueAt(params, slot.path);
    });
    const result: QueryResult<Row> = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  }

  private compiledOnce(db: Db): CompiledQuery<Row> {
    if (this.compiled === undefined) {
      const compiled = this.build((name) => slotAt([name]) as never, slotAt([]) as Params, db).compile();
      this.slots = compiled.parameters.map((value) => (value instanceof Slot ? value : undefined));
      this.compiled = compiled;
    }
    return this.compiled;
  }
}
