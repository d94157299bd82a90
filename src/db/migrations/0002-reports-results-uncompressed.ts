// PostgreSQL compresses values over ~2 KB (TOAST); reports' results are read far more often
// than written, so they are kept out of line but uncompressed. SQLite has no such setting.
import { sql, type Kysely, type Migration } from 'kysely';

export const name = '0002_reports_results_uncompressed';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') await sql`alter table reports alter column results set storage external`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (engine === 'postgres') await sql`alter table reports alter column results set storage extended`.execute(db);
    },
  };
}
