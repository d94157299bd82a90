// Website analytics (src/tracking/). Raw events for the record and for pruning; every
// stats query reads the rollups, which the same transaction that stores an event updates.
// No table holds a client address or a full User-Agent.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0004_analytics';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('analytics_salts')
        .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
        .addColumn('salt', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('analytics_events')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', id)
        .addColumn('website_id', 'integer', (c) => c.notNull().references('websites.id').onDelete('cascade'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('page', 'varchar(2048)', (c) => c.notNull())
        .addColumn('visitor', 'varchar(32)', (c) => c.notNull())
        .addColumn('referrer', 'varchar(255)')
        .addColumn('source', 'varchar(255)')
        .addColumn('campaign', 'varchar(255)')
        .addColumn('browser', 'varchar(64)', (c) => c.notNull())
        .addColumn('os', 'varchar(64)', (c) => c.notNull())
        .addColumn('device', 'varchar(16)', (c) => c.notNull())
        .addColumn('country', 'varchar(16)', (c) => c.notNull())
        .addColumn('continent', 'varchar(16)', (c) => c.notNull())
        .addColumn('city', 'varchar(128)')
        .addColumn('language', 'varchar(35)')
        .addColumn('resolution', 'varchar(16)')
        .addColumn('props', 'text')
        .execute();
      await db.schema
        .createIndex('analytics_events_website_time')
        .on('analytics_events')
        .columns(['website_id', 'created_at'])
        .execute();
      await db.schema.createIndex('analytics_events_time').on('analytics_events').column('created_at').execute();
      // One row per visitor and UTC day: when they were last seen (visits) and which values
      // they have already been counted under (a visitor counts once per value per day).
      await db.schema
        .createTable('analytics_visitors')
        .addColumn('website_id', 'integer', (c) => c.notNull().references('websites.id').onDelete('cascade'))
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('visitor', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('seen', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_visitors_pk', ['website_id', 'day', 'visitor'])
        .execute();
      await db.schema.createIndex('analytics_visitors_day').on('analytics_visitors').column('day').execute();
      await db.schema
        .createTable('analytics_rollups')
        .addColumn('website_id', 'integer', (c) => c.notNull().references('websites.id').onDelete('cascade'))
        .addColumn('dimension', 'varchar(32)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('value', 'varchar(2048)', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_rollups_pk', ['website_id', 'dimension', 'day', 'value'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['analytics_rollups', 'analytics_visitors', 'analytics_events', 'analytics_salts']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
