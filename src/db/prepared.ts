// A hot query compiled once: later runs only swap its parameters, so a request spends no time
// building and compiling the query (together with the SQLite statement cache, that is most of
// a lookup's cost). Parameters are passed in the order they appear in the built query.
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

export function prepared<Row>(db: Kysely<Database>, query: Compilable<Row>) {
  const run = preparedOn(query);
  return (...parameters: unknown[]): Promise<Row[]> => run(db, ...parameters);
}

/** prepared(), run on the connection or transaction given with each call. */
export function preparedOn<Row>(query: Compilable<Row>) {
  const compiled = query.compile();
  return async (db: Kysely<Database>, ...parameters: unknown[]): Promise<Row[]> => {
    if (parameters.length !== compiled.parameters.length) throw new Error('prepared query: parameter count mismatch');
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}

/** preparedOn() for a write: the rows it changed (an UPDATE's fence: 0 when its WHERE matched nothing). */
export function preparedWriteOn(query: Compilable<unknown>) {
  const compiled = query.compile();
  return async (db: Kysely<Database>, ...parameters: unknown[]): Promise<number> => {
    if (parameters.length !== compiled.parameters.length) throw new Error('prepared query: parameter count mismatch');
    return Number((await db.executeQuery({ ...compiled, parameters })).numAffectedRows ?? 0);
  };
}
