// How many distinct values each dimension has kept per website and UTC day, so a batch
// tells a new value past ANALYTICS_MAX_VALUES (counted under `(other)`) without counting
// the rollup rows. Filled from the rollups already stored; days before yesterday are
// pruned with the visitor rows.
import { sql, type Kysely, type Migration } from 'kysely';

export const name = '0011_analytics_value_caps';

export function migration(_engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('analytics_value_caps')
        .addColumn('website_id', 'integer', (c) => c.notNull().references('websites.id').onDelete('cascade'))
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('dimension', 'varchar(32)', (c) => c.notNull())
        .addColumn('kept', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_value_caps_pk', ['website_id', 'day', 'dimension'])
        .execute();
      await db.schema.createIndex('analytics_value_caps_day').on('analytics_value_caps').column('day').execute();
      await sql`insert into analytics_value_caps (website_id, day, dimension, kept)
          select website_id, day, dimension, count(*) from analytics_rollups
          where dimension not in ('pageviews', 'visitors', 'pageviews_hours', 'visitors_hours')
          group by website_id, day, dimension`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('analytics_value_caps').execute();
    },
  };
}
