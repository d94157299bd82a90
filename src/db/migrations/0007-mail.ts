// Mail (src/mail/): every mail a feature queues, sent by a job or kept in the outbox without
// SMTP_URL; `key` makes one unique (a digest's period). `websites.email_since` records when
// e-mail last became 1, so a digest covers only periods that start after it; `digests`
// records each scheduled digest (a website, a rhythm, a period) once it is queued.
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';

export const name = '0007_mail';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mails')
        .addColumn('id', idType, id)
        .addColumn('key', 'varchar(255)', (c) => c.unique())
        .addColumn('recipient', 'varchar(255)', (c) => c.notNull())
        .addColumn('subject', 'varchar(998)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('job_queued', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'varchar(32)')
        .addColumn('last_error', 'text')
        .addColumn('smtp_response', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('sent_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('mails_status').on('mails').columns(['status', 'created_at']).execute();
      await db.schema.alterTable('websites').addColumn('email_since', 'varchar(32)').execute();
      // E-mail turned on before this column existed: at the latest when the row last changed.
      await db.updateTable('websites').set({ email_since: sql`updated_at` }).where('email', '=', 1).execute();
      await db.schema
        .createTable('digests')
        .addColumn('website_id', 'integer', (c) => c.notNull().references('websites.id').onDelete('cascade'))
        .addColumn('period', 'varchar(8)', (c) => c.notNull())
        .addColumn('period_start', 'varchar(10)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('digests_pk', ['website_id', 'period', 'period_start'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('digests').execute();
      await db.schema.alterTable('websites').dropColumn('email_since').execute();
      await db.schema.dropTable('mails').execute();
    },
  };
}
