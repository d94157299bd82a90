// Webhooks (src/webhooks/): an account's receivers, and each delivery of an event to one.
// A delivery keeps the exact body it sends, so every retry sends the same bytes and signature.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0008_webhooks';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('events', 'varchar(255)', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret', 'varchar(128)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_user_id').on('webhooks').columns(['user_id', 'id']).execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', idType, id)
        .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event', 'varchar(32)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'varchar(1000)')
        .addColumn('delivered_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      // A webhook's deliveries newest first; pruning by age.
      await db.schema
        .createIndex('webhook_deliveries_webhook_id')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'id'])
        .execute();
      await db.schema.createIndex('webhook_deliveries_created_at').on('webhook_deliveries').column('created_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('webhooks').execute();
    },
  };
}
