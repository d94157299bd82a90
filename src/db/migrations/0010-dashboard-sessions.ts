// The dashboard's sign-in: a password hash per account and the sessions table.
import type { Kysely, Migration } from 'kysely';

export const name = '0010_dashboard_sessions';

export function migration(_engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      // The dashboard's sign-in: an argon2id hash (null until `users password` or the first start sets one).
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
      await db.schema
        .createTable('sessions')
        // SHA-256 of the cookie's random id: a copy of the table opens no session.
        .addColumn('id_hash', 'char(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sessions').execute();
      await db.schema.alterTable('users').dropColumn('password_hash').execute();
    },
  };
}
