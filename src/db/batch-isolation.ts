// One event that a database refuses must not take its batch down with it (a batch is one
// transaction, and one refused row rolls all of it back). A refused batch is written again by
// halves, each in a transaction of its own, until the refused events stand alone: k bad events
// among n cost about 2k·log2(n) extra transactions, and every other event is stored. An error that
// says the database itself is failing (connection lost, disk full, busy, read-only) fails the
// batch at once: writing it again by halves would only fail again, n times over.

/** An item of a batch that was not stored, by its index in the batch, and why. */
export interface BatchFailure {
  index: number;
  error: Error;
}

/** PostgreSQL's SQLSTATE classes of a failing server or connection, not of a statement's rows. */
const PG_UNAVAILABLE = new Set(['08', '53', '57', '58', 'XX']);
/** SQLite's result codes of a failing file, lock or memory, not of a statement's rows. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM|CORRUPT|NOTADB|PERM|AUTH|PROTOCOL|INTERRUPT)/;

/**
 * Whether the database refused a statement for what it held (a constraint, a value, a trigger,
 * a deadlock), so that the same rows in smaller transactions may be stored. Errors without a
 * database's code (a lost connection, a closed pool) are not.
 */
export function refusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_')) return !SQLITE_UNAVAILABLE.test(code);
  return /^[0-9A-Z]{5}$/.test(code) && !PG_UNAVAILABLE.has(code.slice(0, 2));
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** `write(items)`; refused, its halves in turn. The items not stored, with their errors (none: all stored). */
export async function writeIsolating<T>(items: T[], write: (items: T[]) => Promise<void>): Promise<BatchFailure[]> {
  const failures: BatchFailure[] = [];
  const attempt = async (from: number, to: number): Promise<void> => {
    try {
      await write(from === 0 && to === items.length ? items : items.slice(from, to));
    } catch (error) {
      if (to - from === 1 || !refusedByDatabase(error)) {
        for (let i = from; i < to; i++) failures.push({ index: i, error: asError(error) });
        return;
      }
      const middle = from + Math.ceil((to - from) / 2);
      await attempt(from, middle);
      await attempt(middle, to);
    }
  };
  if (items.length > 0) await attempt(0, items.length);
  return failures;
}

/** writeIsolating for a synchronous write (the SQLite batch). */
export function writeIsolatingSync<T>(items: T[], write: (items: T[]) => void): BatchFailure[] {
  const failures: BatchFailure[] = [];
  const attempt = (from: number, to: number): void => {
    try {
      write(from === 0 && to === items.length ? items : items.slice(from, to));
    } catch (error) {
      if (to - from === 1 || !refusedByDatabase(error)) {
        for (let i = from; i < to; i++) failures.push({ index: i, error: asError(error) });
        return;
      }
      const middle = from + Math.ceil((to - from) / 2);
      attempt(from, middle);
      attempt(middle, to);
    }
  };
  if (items.length > 0) attempt(0, items.length);
  return failures;
}
