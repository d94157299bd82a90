// `search` is a substring of the url or the project: a plain index cannot serve it, so at
// 100,000 reports every search scanned the table. Trigram indexes answer it in
// milliseconds: SQLite's FTS5 trigram tokenizer (kept in step by triggers), PostgreSQL's
// pg_trgm GIN indexes on lower(url) and lower(project). pg_trgm is a trusted extension;
// where it cannot be installed the migration carries on, and search scans as before.
import { sql, type Kysely, type Migration } from 'kysely';

export const name = '0003_report_search_index';

export function migration(engine: 'sqlite' | 'postgres'): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'sqlite') {
        await sql`create virtual table reports_search using fts5(url, project, content='reports', content_rowid='id', tokenize='trigram')`.execute(
          db,
        );
        // SQLite stores a trigger's text as written (sqlite_master): its spacing is kept as the first
        // databases have it.
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
  };
}
