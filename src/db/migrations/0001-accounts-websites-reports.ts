// Accounts (users), their websites and reports, and the settings table.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export const name = '0001_accounts_websites_reports';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', idType, id)
        .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
        .addColumn('api_key_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('websites')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('domain', 'varchar(255)', (c) => c.notNull())
        .addColumn('privacy', 'integer', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('email', 'integer')
        .addColumn('exclude_bots', 'integer', (c) => c.notNull())
        .addColumn('exclude_ips', 'text')
        .addColumn('exclude_params', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('websites_user_domain_unique', ['user_id', 'domain'])
        .execute();
      await db.schema.createIndex('websites_user_id').on('websites').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('reports')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('project', 'varchar(255)', (c) => c.notNull())
        .addColumn('result', 'integer', (c) => c.notNull())
        .addColumn('results', 'text', (c) => c.notNull())
        .addColumn('privacy', 'integer', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('generated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      // Every list is scoped to one account, then filtered or sorted by one of these.
      await db.schema.createIndex('reports_user_id').on('reports').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('reports_user_project').on('reports').columns(['user_id', 'project', 'id']).execute();
      await db.schema.createIndex('reports_user_result').on('reports').columns(['user_id', 'result', 'id']).execute();
      await db.schema.createIndex('reports_user_generated').on('reports').columns(['user_id', 'generated_at', 'id']).execute();
      await db.schema.createIndex('reports_user_url').on('reports').columns(['user_id', 'url', 'id']).execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['settings', 'reports', 'websites', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
