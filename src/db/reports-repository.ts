import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, ReportsTable, Toggle } from './schema.js';
import type { DatabaseEngine } from './connection.js';
import { containsIgnoringCase } from './like.js';
import { canMatchStoredText } from '../model/text.js';
import { prepared, preparedOn, preparedWriteOn } from './prepared.js';
import { insertHistory, summariseChecks, type ReportHistoryRow } from './report-history-repository.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import { Privacy } from '../model/privacy.js';

export type ReportRow = Selectable<ReportsTable>;
/**
 * A report as read for a response: `results` is the stored JSON text, as bytes on SQLite (read
 * as a BLOB, it is copied rather than decoded into a string and encoded again on the way out).
 */
export type StoredReport = Omit<ReportRow, 'results'> & { results: string | Buffer };

/**
 * An FTS5 phrase: with the trigram tokenizer it matches the term as a case-insensitive substring
 * of the url or the project (migration 0003); terms under 3 characters have no trigram, so
 * they fall back to LIKE.
 */
function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Every non-null filter term can match some stored text (see model/text.ts). */
function canMatchAll(...terms: (string | null)[]): boolean {
  return terms.every((t) => t === null || canMatchStoredText(t));
}

const COLUMNS = [
  'id',
  'user_id',
  'url',
  'project',
  'result',
  'privacy',
  'password_hash',
  'rendered',
  'generated_at',
  'created_at',
  'updated_at',
] as const;
export type NewReport = Omit<ReportRow, 'id' | 'rendered' | 'created_at' | 'updated_at'> & { rendered?: Toggle };
export type ReportChanges = Omit<Updateable<ReportsTable>, 'id' | 'user_id' | 'url' | 'project' | 'created_at' | 'updated_at'>;

export type ReportSortColumn = 'id' | 'generated_at' | 'url' | 'result';

export interface ReportListQuery {
  userId: number;
  search: string | null;
  project: string | null;
  /** Inclusive lower and exclusive upper bound on `result` (a band), or null. */
  resultRange: { min: number | null; below: number | null } | null;
  sortBy: ReportSortColumn;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ProjectSummary {
  project: string;
  reports_count: number;
  created_at: string;
  updated_at: string;
}

export interface ProjectListQuery {
  userId: number;
  search: string | null;
  sortBy: 'created_at' | 'project';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export class ReportsRepository {
  private readonly results;
  /** Every GET /reports/{id} runs this: compiled once. */
  private readonly byOwnerAndId;

  /** Every crawled page runs these (recordIn): compiled once. */
  private readonly idForUrlIn;
  private readonly insertIn;
  private readonly historyIn;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock = systemClock,
  ) {
    this.results = engine === 'sqlite' ? sql<Buffer>`cast(results as blob)`.as('results') : sql<string>`results`.as('results');
    this.byOwnerAndId = prepared(
      db,
      db
        .selectFrom('reports')
        .select([...COLUMNS, this.results])
        .where('user_id', '=', 0)
        .where('id', '=', 0),
    );
    this.idForUrlIn = preparedOn(
      db.selectFrom('reports').select('id').where('user_id', '=', 0).where('url', '=', '').orderBy('id', 'desc').limit(1),
    );
    // Parameters in the order of the columns named.
    this.insertIn = preparedOn(
      db
        .insertInto('reports')
        .values({
          user_id: 0,
          url: '',
          project: '',
          result: 0,
          results: '',
          privacy: Privacy.Private,
          password_hash: null,
          rendered: 0,
          generated_at: '',
          created_at: '',
          updated_at: '',
        })
        .returning('id'),
    );
    this.historyIn = preparedWriteOn(
      db
        .insertInto('report_history')
        .values({ report_id: 0, result: 0, passed: 0, failed: 0, passed_checks: '', generated_at: '' }),
    );
  }

  /**
   * One count and one page query; every filter and sort has an index starting with user_id.
   * The page picks its ids from an index first and only then reads those rows, so a deep
   * page never walks the wide rows it skips (and the planner cannot prefer a table scan when
   * one account holds most of the reports).
   */
  async list(q: ReportListQuery): Promise<{ total: number; rows: StoredReport[] }> {
    if (!canMatchAll(q.search, q.project)) return { total: 0, rows: [] };
    let base = this.db.selectFrom('reports').where('user_id', '=', q.userId);
    if (q.project !== null) base = base.where('project', '=', q.project);
    if (q.search !== null) {
      const term = q.search;
      base =
        this.engine === 'sqlite' && [...term].length >= 3
          ? base.where(sql<boolean>`id in (select rowid from reports_search where reports_search match ${ftsPhrase(term)})`)
          : base.where((eb) => eb.or([containsIgnoringCase('url', term), containsIgnoringCase('project', term)]));
    }
    if (q.resultRange) {
      const { min, below } = q.resultRange;
      if (min !== null) base = base.where('result', '>=', min);
      if (below !== null) base = base.where('result', '<', below);
    }
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || q.offset >= total) return { total, rows: [] };
    // id breaks ties, so the order is stable across pages
    const order = q.sortBy === 'id' ? (['id'] as const) : ([q.sortBy, 'id'] as const);
    let ids = base.select('id');
    for (const column of order) ids = ids.orderBy(column, q.sort);
    let rows = this.db
      .selectFrom('reports')
      .select([...COLUMNS, this.results])
      .where('id', 'in', ids.limit(q.limit).offset(q.offset));
    for (const column of order) rows = rows.orderBy(column, q.sort);
    return { total, rows: await rows.execute() };
  }

  async find(userId: number, id: number): Promise<StoredReport | undefined> {
    return (await this.byOwnerAndId(userId, id))[0];
  }

  /** The report with this id regardless of owner: the public share page decides by privacy. */
  findById(id: number): Promise<StoredReport | undefined> {
    return this.db
      .selectFrom('reports')
      .select([...COLUMNS, this.results])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The id of the account's newest report of exactly this URL (a crawl re-runs it rather than adding one). */
  async idForUrl(userId: number, url: string): Promise<number | undefined> {
    return (await this.idForUrlIn(this.db, userId, url, 1))[0]?.id;
  }

  /** Whether the account has this report (a light check: no results read). */
  async owns(userId: number, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('reports')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Stores a new report and its first history item, in one transaction. */
  async create(report: NewReport): Promise<ReportRow> {
    return (await this.createRecorded(report)).report;
  }

  /** create(), also returning the history item it recorded. */
  createRecorded(report: NewReport): Promise<{ report: ReportRow; history: ReportHistoryRow }> {
    const now = nowTimestamp(this.clock);
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('reports')
        .values({ ...report, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const history = await insertHistory(trx, {
        report_id: row.id,
        result: row.result,
        results: report.results,
        generated_at: row.generated_at,
      });
      return { report: row, history };
    });
  }

  /**
   * A crawled page's analysis, written on `db` (the caller's transaction, where a crawl also writes
   * its page row: one commit for a batch of pages): the account's newest report of that URL gets
   * it as a re-run (its privacy kept), else it becomes a new report; a history item either way.
   * `checks` is `report.results` before it was serialised, for the history's counts. Nothing is
   * read back but the id and the columns a re-run keeps: the row returned is built from what was
   * written (the results are some 30 KB a page).
   */
  async recordIn(db: Kysely<Database>, report: NewReport, checks: unknown): Promise<{ report: ReportRow; created: boolean }> {
    const existing = (await this.idForUrlIn(db, report.user_id, report.url, 1))[0]?.id;
    const now = nowTimestamp(this.clock);
    const rendered = report.rendered ?? 0;
    const summary = summariseChecks(checks);
    const history = (id: number) =>
      this.historyIn(db, id, report.result, summary.passed, summary.failed, summary.passedChecks.join(','), report.generated_at);
    if (existing !== undefined) {
      const kept = await db
        .updateTable('reports')
        .set({ result: report.result, results: report.results, rendered, generated_at: report.generated_at, updated_at: now })
        .where('user_id', '=', report.user_id)
        .where('id', '=', existing)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (kept) {
        await history(kept.id);
        return { report: { ...kept, results: report.results }, created: false };
      }
    }
    const [{ id }] = await this.insertIn(
      db,
      report.user_id,
      report.url,
      report.project,
      report.result,
      report.results,
      report.privacy,
      report.password_hash,
      rendered,
      report.generated_at,
      now,
      now,
    );
    await history(id);
    return { report: { ...report, id, rendered, created_at: now, updated_at: now }, created: true };
  }

  /** Changes a report; new results (a re-run) add a history item in the same transaction. */
  async update(userId: number, id: number, changes: ReportChanges): Promise<ReportRow | undefined> {
    return (await this.updateRecorded(userId, id, changes))?.report;
  }

  /** update(), also returning the history item a re-run recorded (null when `changes` holds no results). */
  async updateRecorded(
    userId: number,
    id: number,
    changes: ReportChanges,
  ): Promise<{ report: ReportRow; history: ReportHistoryRow | null } | undefined> {
    const write = async (db: Kysely<Database>) => {
      const row = await db
        .updateTable('reports')
        .set({ ...changes, updated_at: nowTimestamp(this.clock) })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row || changes.results === undefined) return row && { report: row, history: null };
      const history = await insertHistory(db, {
        report_id: row.id,
        result: row.result,
        results: String(changes.results),
        generated_at: row.generated_at,
      });
      return { report: row, history };
    };
    return changes.results === undefined ? write(this.db) : this.db.transaction().execute(write);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('reports').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listProjects(q: ProjectListQuery): Promise<{ total: number; rows: ProjectSummary[] }> {
    if (!canMatchAll(q.search)) return { total: 0, rows: [] };
    let base = this.db.selectFrom('reports').where('user_id', '=', q.userId);
    if (q.search !== null) base = base.where(containsIgnoringCase('project', q.search));
    const counted = await base.select(sql<number>`count(distinct project)`.as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || q.offset >= total) return { total, rows: [] };
    const rows = await base
      .select((eb) => [
        'project',
        eb.fn.countAll().as('reports_count'),
        eb.fn.min('created_at').as('created_at'),
        eb.fn.max('updated_at').as('updated_at'),
      ])
      .groupBy('project')
      .orderBy(q.sortBy === 'project' ? 'project' : sql`min(created_at)`, q.sort)
      .orderBy('project', q.sort)
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    return {
      total,
      rows: rows.map((r) => ({
        project: r.project,
        reports_count: Number(r.reports_count),
        created_at: String(r.created_at),
        updated_at: String(r.updated_at),
      })),
    };
  }

  /** Deletes a project's reports; the number deleted (0: no such project). */
  /** Deletes the account's reports in `project`; their ids (each one's deletion is an event). */
  async deleteProject(userId: number, project: string): Promise<number[]> {
    // A project is a host name: none is longer than 255 characters, so such a name matches nothing.
    if (project.length > 255 || !canMatchStoredText(project)) return [];
    const rows = await this.db
      .deleteFrom('reports')
      .where('user_id', '=', userId)
      .where('project', '=', project)
      .returning('id')
      .execute();
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }

  /**
   * The reports a website's share page lists: its domain, with or without `www.`, newest
   * first, and only those that are public themselves (a private or password report never
   * shows on a public page).
   */
  publicForDomain(
    userId: number,
    domain: string,
    limit = 1000,
  ): Promise<Pick<ReportRow, 'id' | 'url' | 'result' | 'privacy' | 'generated_at'>[]> {
    const bare = domain.replace(/^www\./, '');
    return this.db
      .selectFrom('reports')
      .select(['id', 'url', 'result', 'privacy', 'generated_at'])
      .where('user_id', '=', userId)
      .where('project', '=', bare)
      .where('privacy', '=', Privacy.Public)
      .orderBy('generated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async countsFor(userId: number): Promise<{ reports: number; projects: number }> {
    const row = await this.db
      .selectFrom('reports')
      .select((eb) => [eb.fn.countAll().as('reports'), sql<number>`count(distinct project)`.as('projects')])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { reports: Number(row.reports), projects: Number(row.projects) };
  }
}
