// One ordered migration list for both engines. Only the identity column differs by dialect.
import { sql, type Kysely, type Migration, type MigrationProvider, type ColumnDefinitionBuilder } from 'kysely';
import type { DatabaseEngine } from './schema.js';
import { summariseResults } from './report-history-repository.js';

type IdBuilder = (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

function migrations(engine: DatabaseEngine): Record<string, Migration> {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id: IdBuilder = engine === 'postgres' ? (c) => c.primaryKey() : (c) => c.primaryKey().autoIncrement();

  return {
    '0001_accounts_websites_reports': {
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
    },
    '0002_reports_results_uncompressed': {
      // PostgreSQL compresses values over ~2 KB (TOAST); reports' results are read far more often
      // than written, so they are kept out of line but uncompressed. SQLite has no such setting.
      async up(db: Kysely<any>) {
        if (engine === 'postgres') await sql`alter table reports alter column results set storage external`.execute(db);
      },
      async down(db: Kysely<any>) {
        if (engine === 'postgres') await sql`alter table reports alter column results set storage extended`.execute(db);
      },
    },
    '0003_report_search_index': {
      // `search` is a substring of the url or the project: a plain index cannot serve it, so at
      // 100,000 reports every search scanned the table. Trigram indexes answer it in
      // milliseconds: SQLite's FTS5 trigram tokenizer (kept in step by triggers), PostgreSQL's
      // pg_trgm GIN indexes on lower(url) and lower(project). pg_trgm is a trusted extension;
      // where it cannot be installed the migration carries on, and search scans as before.
      async up(db: Kysely<any>) {
        if (engine === 'sqlite') {
          await sql`create virtual table reports_search using fts5(url, project, content='reports', content_rowid='id', tokenize='trigram')`.execute(
            db,
          );
          await sql`create trigger reports_search_insert after insert on reports begin
            insert into reports_search(rowid, url, project) values (new.id, new.url, new.project); end`.execute(db);
          await sql`create trigger reports_search_delete after delete on reports begin
            insert into reports_search(reports_search, rowid, url, project) values ('delete', old.id, old.url, old.project); end`.execute(
            db,
          );
          await sql`create trigger reports_search_update after update of url, project on reports begin
            insert into reports_search(reports_search, rowid, url, project) values ('delete', old.id, old.url, old.project);
            insert into reports_search(rowid, url, project) values (new.id, new.url, new.project); end`.execute(db);
          await sql`insert into reports_search(reports_search) values ('rebuild')`.execute(db);
          return;
        }
        await sql`savepoint pg_trgm`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm with schema public`.execute(db);
          await sql`release savepoint pg_trgm`.execute(db);
        } catch {
          await sql`rollback to savepoint pg_trgm`.execute(db);
        }
        const trgm = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
        if (trgm.rows[0].n === 0) return;
        const ops = sql.raw('public.gin_trgm_ops');
        await sql`create index reports_url_trigram on reports using gin (lower(url) ${ops})`.execute(db);
        await sql`create index reports_project_trigram on reports using gin (lower(project) ${ops})`.execute(db);
      },
      async down(db: Kysely<any>) {
        if (engine === 'sqlite') {
          for (const trigger of ['reports_search_insert', 'reports_search_delete', 'reports_search_update']) {
            await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
          }
          await sql`drop table if exists reports_search`.execute(db);
        } else {
          await sql`drop index if exists reports_url_trigram`.execute(db);
          await sql`drop index if exists reports_project_trigram`.execute(db);
        }
      },
    },
    '0004_analytics': {
      // Website analytics (src/tracking/). Raw events for the record and for pruning; every
      // stats query reads the rollups, which the same transaction that stores an event updates.
      // No table holds a client address or a full User-Agent.
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
    },
    '0005_jobs': {
      // The embedded engine's job queue (jobs/sqlite-queue.ts). On PostgreSQL, pg-boss keeps its
      // jobs in a schema of its own and creates it itself.
      async up(db: Kysely<any>) {
        if (engine !== 'sqlite') return;
        await db.schema
          .createTable('jobs')
          .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
          .addColumn('type', 'varchar(64)', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('state', 'varchar(16)', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('retry_limit', 'integer', (c) => c.notNull())
          .addColumn('retry_delay', 'integer', (c) => c.notNull())
          .addColumn('retry_backoff', 'integer', (c) => c.notNull())
          .addColumn('run_at', 'bigint', (c) => c.notNull())
          .addColumn('locked_until', 'bigint')
          .addColumn('locked_by', 'varchar(64)')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
      },
      async down(db: Kysely<any>) {
        if (engine === 'sqlite') await db.schema.dropTable('jobs').execute();
      },
    },
    '0007_mail': {
      // Mail (src/mail/): every mail a feature queues, sent by a job or kept in the outbox without
      // SMTP_URL; `key` makes one unique (a digest's period). `websites.email_since` records when
      // e-mail last became 1, so a digest covers only periods that start after it; `digests`
      // records each scheduled digest (a website, a rhythm, a period) once it is queued.
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
    },
    '0009_crawls': {
      // Site audits (src/crawl/): a crawl, its frontier and pages (one row per URL found: the
      // queue lives here, not in memory, so a crawl resumes after a restart and instances share
      // it), the URLs its sitemaps list, and the site-level issues found when it finishes.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('crawls')
          .addColumn('id', idType, id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('url', 'varchar(2048)', (c) => c.notNull())
          .addColumn('project', 'varchar(255)', (c) => c.notNull())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('max_pages', 'integer', (c) => c.notNull())
          .addColumn('sitemap', 'integer', (c) => c.notNull())
          .addColumn('slots', 'integer', (c) => c.notNull())
          .addColumn('delay_ms', 'integer', (c) => c.notNull())
          .addColumn('pages_found', 'integer', (c) => c.notNull())
          .addColumn('pages_done', 'integer', (c) => c.notNull())
          .addColumn('pages_failed', 'integer', (c) => c.notNull())
          .addColumn('score_sum', 'integer', (c) => c.notNull())
          .addColumn('scored', 'integer', (c) => c.notNull())
          .addColumn('issues', 'integer', (c) => c.notNull())
          .addColumn('sitemap_found', 'integer', (c) => c.notNull())
          .addColumn('origins', 'text', (c) => c.notNull())
          .addColumn('error', 'varchar(1000)')
          .addColumn('deadline_ms', 'bigint')
          .addColumn('started_at', 'varchar(32)')
          .addColumn('finished_at', 'varchar(32)')
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('crawls_user_id').on('crawls').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('crawl_pages')
          .addColumn('id', idType, id)
          .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
          .addColumn('url', 'varchar(2048)', (c) => c.notNull())
          .addColumn('state', 'varchar(16)', (c) => c.notNull())
          .addColumn('priority', 'integer', (c) => c.notNull())
          .addColumn('depth', 'integer')
          .addColumn('lease_ms', 'bigint')
          .addColumn('status_code', 'integer')
          .addColumn('redirect_to', 'varchar(2048)')
          .addColumn('report_id', 'integer')
          .addColumn('result', 'integer')
          .addColumn('in_sitemap', 'integer', (c) => c.notNull())
          .addColumn('indexable', 'integer', (c) => c.notNull())
          .addColumn('robots_disallowed', 'integer', (c) => c.notNull())
          .addColumn('html', 'integer', (c) => c.notNull())
          .addColumn('noindex', 'integer', (c) => c.notNull())
          .addColumn('mixed_content', 'integer', (c) => c.notNull())
          .addColumn('title', 'varchar(1000)')
          .addColumn('description', 'varchar(2000)')
          .addColumn('canonical', 'varchar(2048)')
          .addColumn('inlinks', 'integer', (c) => c.notNull())
          .addColumn('linked_from', 'text', (c) => c.notNull())
          .addColumn('error', 'varchar(1000)')
          .execute();
        await db.schema.createIndex('crawl_pages_url').on('crawl_pages').columns(['crawl_id', 'url']).unique().execute();
        // The frontier: the next queued page by priority (depth), then discovery order.
        await db.schema
          .createIndex('crawl_pages_frontier')
          .on('crawl_pages')
          .columns(['crawl_id', 'state', 'priority', 'id'])
          .execute();
        await db.schema
          .createTable('crawl_sitemap_urls')
          .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
          .addColumn('url', 'varchar(2048)', (c) => c.notNull())
          .addPrimaryKeyConstraint('crawl_sitemap_urls_pk', ['crawl_id', 'url'])
          .execute();
        await db.schema
          .createTable('crawl_issues')
          .addColumn('id', idType, id)
          .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
          .addColumn('type', 'varchar(64)', (c) => c.notNull())
          .addColumn('severity', 'varchar(8)', (c) => c.notNull())
          .addColumn('url', 'varchar(2048)', (c) => c.notNull())
          .addColumn('detail', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('crawl_issues_crawl').on('crawl_issues').columns(['crawl_id', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('crawl_issues').execute();
        await db.schema.dropTable('crawl_sitemap_urls').execute();
        await db.schema.dropTable('crawl_pages').execute();
        await db.schema.dropTable('crawls').execute();
      },
    },
    '0008_webhooks': {
      // Webhooks (src/webhooks/): an account's receivers, and each delivery of an event to one.
      // A delivery keeps the exact body it sends, so every retry sends the same bytes and signature.
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
    },
    '0006_report_history_monitors': {
      // A report's history (one row per analysis) and monitors, its scheduled re-runs
      // (src/monitors/). Reports stored before this migration get one history item each, from
      // the analysis they hold, so every report's history starts with its first analysis.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('report_history')
          .addColumn('id', idType, id)
          .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('result', 'integer', (c) => c.notNull())
          .addColumn('passed', 'integer', (c) => c.notNull())
          .addColumn('failed', 'integer', (c) => c.notNull())
          .addColumn('passed_checks', 'text', (c) => c.notNull())
          .addColumn('generated_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('report_history_report').on('report_history').columns(['report_id', 'id']).execute();

        await db.schema
          .createTable('monitors')
          .addColumn('id', idType, id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('frequency', 'varchar(16)', (c) => c.notNull())
          .addColumn('alert_drop', 'integer', (c) => c.notNull())
          .addColumn('email', 'integer', (c) => c.notNull())
          .addColumn('last_run_at', 'varchar(32)')
          .addColumn('next_run_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('last_result', 'integer')
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('monitors_user_id').on('monitors').columns(['user_id', 'id']).execute();
        // The scheduler's lookup; and deleting a report finds its monitors by report_id.
        await db.schema.createIndex('monitors_due').on('monitors').columns(['next_run_at', 'id']).execute();
        await db.schema.createIndex('monitors_report').on('monitors').column('report_id').execute();

        // Existing reports: one item each, in id order, a batch at a time (results are ~30 KB).
        for (let after = 0; ; ) {
          const batch: { id: number; result: number; results: string | Buffer; generated_at: string }[] = await db
            .selectFrom('reports')
            .select(['id', 'result', 'results', 'generated_at'])
            .where('id', '>', after)
            .orderBy('id')
            .limit(200)
            .execute();
          if (batch.length === 0) break;
          await db
            .insertInto('report_history')
            .values(
              batch.map((r) => {
                const summary = summariseResults(String(r.results));
                return {
                  report_id: r.id,
                  result: r.result,
                  passed: summary.passed,
                  failed: summary.failed,
                  passed_checks: summary.passedChecks.join(','),
                  generated_at: r.generated_at,
                };
              }),
            )
            .execute();
          after = batch[batch.length - 1].id;
        }
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('monitors').execute();
        await db.schema.dropTable('report_history').execute();
      },
    },
    '0010_dashboard_sessions': {
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
    },
    '0011_analytics_value_caps': {
      // How many distinct values each dimension has kept per website and UTC day, so a batch
      // tells a new value past ANALYTICS_MAX_VALUES (counted under `(other)`) without counting
      // the rollup rows. Filled from the rollups already stored; days before yesterday are
      // pruned with the visitor rows.
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
    },
    '0012_analytics_read_bounds': {
      // The stats read the rollups a day at a time in primary-key order (src/tracking/stats-service.ts).
      // On SQLite the table becomes WITHOUT ROWID: its rows are stored in that key's b-tree, so
      // a read walks one b-tree and finds the count beside the key, where the rowid table sent
      // every row of its key index on to a second lookup (a day of 10,000 values: 2.9 ms against
      // 5.6; no slower to write). PostgreSQL keeps its table: an index carrying the count would
      // stop the increments from being HOT updates, and its reads do not block the event loop.
      async up(db: Kysely<any>) {
        if (engine !== 'sqlite') return;
        await rebuildRollups(db, 'without rowid');
      },
      async down(db: Kysely<any>) {
        if (engine !== 'sqlite') return;
        await rebuildRollups(db, '');
      },
    },
    '0013_job_fairness': {
      // Shared fairly: jobs carry their account (the SQLite queue's column; pg-boss keeps it in
      // the job's data), so accounts take turns at each kind's slots; mails know their account,
      // for MAIL_PER_HOUR; crawls count the sitemap URLs past their cap; an account's crawls by
      // status, for MAX_RUNNING_CRAWLS.
      async up(db: Kysely<any>) {
        if (engine === 'sqlite') {
          await db.schema.alterTable('jobs').addColumn('account', 'integer').execute();
          await db.schema.createIndex('jobs_account_due').on('jobs').columns(['state', 'account', 'run_at']).execute();
        }
        await db.schema
          .alterTable('mails')
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .execute();
        await db.schema.createIndex('mails_user_sent').on('mails').columns(['user_id', 'status', 'sent_at']).execute();
        await db.schema
          .alterTable('crawls')
          .addColumn('sitemap_urls_unkept', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // 1 once a running crawl's start has queued its page workers (until then a start job may
        // take it over). Crawls from before ran their start already.
        await db.schema
          .alterTable('crawls')
          .addColumn('workers_queued', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.updateTable('crawls').set({ workers_queued: 1 }).where('status', '!=', 'queued').execute();
        await db.schema.createIndex('crawls_user_status').on('crawls').columns(['user_id', 'status', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('crawls_user_status').execute();
        await db.schema.alterTable('crawls').dropColumn('workers_queued').execute();
        await db.schema.alterTable('crawls').dropColumn('sitemap_urls_unkept').execute();
        await db.schema.dropIndex('mails_user_sent').execute();
        await db.schema.alterTable('mails').dropColumn('user_id').execute();
        if (engine === 'sqlite') {
          await db.schema.dropIndex('jobs_account_due').execute();
          await db.schema.alterTable('jobs').dropColumn('account').execute();
        }
      },
    },
    '0014_analytics_props': {
      // Custom properties are rollup dimensions of their own (src/model/rollup.ts
      // propDimension: `prop:<key length>:<key>[:<event name>]`, up to 193 characters), in the
      // rollups and the value counts. PostgreSQL widens the columns (a varchar made longer
      // rewrites neither the table nor its key); SQLite does not enforce a varchar's length.
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
    },
    '0015_crawl_links': {
      // Links to other hosts, images and hreflang targets a crawl checks (docs/external-links.md):
      // one row per URL and kind, checked once per URL under a lease like a page; the crawl says
      // whether to check them (`external`), counts the checks begun against CRAWL_MAX_EXTERNAL,
      // and how many URLs were left unchecked.
      async up(db: Kysely<any>) {
        await db.schema
          .alterTable('crawls')
          .addColumn('external', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        await db.schema
          .alterTable('crawls')
          .addColumn('external_checks', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('crawls')
          .addColumn('external_unchecked', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable('crawl_links')
          .addColumn('id', idType, id)
          .addColumn('crawl_id', 'integer', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
          .addColumn('url', 'varchar(2048)', (c) => c.notNull())
          .addColumn('kind', 'varchar(16)', (c) => c.notNull())
          .addColumn('host', 'varchar(255)', (c) => c.notNull())
          .addColumn('state', 'varchar(16)', (c) => c.notNull())
          .addColumn('lease_ms', 'bigint')
          .addColumn('status_code', 'integer')
          .addColumn('final_status', 'integer')
          .addColumn('final_url', 'varchar(2048)')
          .addColumn('error', 'varchar(1000)')
          .addColumn('bytes', 'bigint')
          .addColumn('pages', 'integer', (c) => c.notNull())
          .addColumn('linked_from', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('crawl_links_url').on('crawl_links').columns(['crawl_id', 'url', 'kind']).unique().execute();
        // The next URL to check: queued rows in discovery order; and the checks under way by host.
        await db.schema.createIndex('crawl_links_queue').on('crawl_links').columns(['crawl_id', 'state', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('crawl_links').execute();
        await db.schema.alterTable('crawls').dropColumn('external_unchecked').execute();
        await db.schema.alterTable('crawls').dropColumn('external_checks').execute();
        await db.schema.alterTable('crawls').dropColumn('external').execute();
      },
    },
  };
}

export function migrationProvider(engine: DatabaseEngine): MigrationProvider {
  return { getMigrations: async () => migrations(engine) };
}

/** SQLite: analytics_rollups copied into a table of the same columns and key with `options`, in one transaction. */
async function rebuildRollups(db: Kysely<any>, options: 'without rowid' | ''): Promise<void> {
  await sql`begin immediate`.execute(db);
  try {
    await sql`create table analytics_rollups_rebuilt (
      website_id integer not null references websites (id) on delete cascade,
      dimension varchar(32) not null,
      day varchar(10) not null,
      value varchar(2048) not null,
      count bigint not null,
      constraint analytics_rollups_pk primary key (website_id, dimension, day, value)
    ) ${sql.raw(options)}`.execute(db);
    await sql`insert into analytics_rollups_rebuilt (website_id, dimension, day, value, count)
      select website_id, dimension, day, value, count from analytics_rollups order by website_id, dimension, day, value`.execute(
      db,
    );
    await sql`drop table analytics_rollups`.execute(db);
    await sql`alter table analytics_rollups_rebuilt rename to analytics_rollups`.execute(db);
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => {});
    throw error;
  }
}
