// Custom properties are rollup dimensions of their own (src/model/rollup.ts
// propDimension: `prop:<key length>:<key>[:<event name>]`, up to 193 characters), in the
// rollups and the value counts. PostgreSQL widens the columns (a varchar made longer
// rewrites neither the table nor its key); SQLite does not enforce a varchar's length.
import { sql, type Kysely, type Migration } from 'kysely';

export const name = '0014_analytics_props';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      for (const table of ['analytics_rollups', 'analytics_value_caps']) {
        await sql`alter table ${sql.table(table)} alter column dimension type varchar(255)`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      for (const table of ['analytics_rollups', 'analytics_value_caps']) {
        await sql`delete from ${sql.table(table)} where length(dimension) > 32`.execute(db);
        await sql`alter table ${sql.table(table)} alter column dimension type varchar(32)`.execute(db);
      }
    },
  };
}
