// A database that refuses one event: a trigger on analytics_events that fails the insert of a
// row with a given page, on either engine. The store under test runs its real statements in its
// real transactions; only the database says no, as it would to a value it cannot hold.
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/connection.js';

/** Every insert of an event whose page is `page` fails with "refused by the test trigger". */
export async function refuseEventsWithPage(handle: DatabaseHandle, page: string): Promise<void> {
  const literal = `'${page.replace(/'/g, "''")}'`;
  if (handle.engine === 'sqlite') {
    await sql
      .raw(
        `create trigger refuse_page before insert on analytics_events when new.page = ${literal} ` +
          `begin select raise(abort, 'refused by the test trigger'); end`,
      )
      .execute(handle.db);
    return;
  }
  await sql
    .raw(
      `create function refuse_page() returns trigger language plpgsql as $$ begin ` +
        `if new.page = ${literal} then raise exception 'refused by the test trigger'; end if; return new; end $$`,
    )
    .execute(handle.db);
  await sql
    .raw('create trigger refuse_page before insert on analytics_events for each row execute function refuse_page()')
    .execute(handle.db);
}
