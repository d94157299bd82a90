// Creating and refreshing reports, for every caller: the API's routes, scheduled monitors, and
// site crawls next. A report is the analysis of one page, run through the instance's fair pool
// (analysis-pool.ts), with its privacy applied, stored. Every analysis stored also adds an item
// to the report's history (the repository writes both in one transaction). Callers validate
// first: privacy changes that lack a password are refused by lacksPassword
// (sharing/privacy-change.ts) before any work.
import type { AnalysedPage } from '../analysis/results.js';
import { reportResource } from '../resources/report.js';
import type { ReportHistoryRow } from '../db/report-history-repository.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReportRow, ReportsRepository, StoredReport } from '../db/reports-repository.js';
import { noEvents, type EventSink } from '../model/events.js';
import { NEW_RESOURCE, applyPrivacy, type PrivacyChange } from '../sharing/privacy-change.js';
import { Privacy } from '../model/privacy.js';
import type { AccountKey, AnalysisPool } from './analysis-pool.js';

/**
 * Fetches and analyses one page with the instance's settings; rejects with FetchError when the
 * page cannot be analysed, or with the signal's reason once it aborts. With `render`, the
 * checks run on the DOM Chromium built (docs/rendering.md), and a page the browser cannot
 * render rejects with the renderer's error.
 */
export type PageAnalyser = (
  url: string,
  signal: AbortSignal,
  account: AccountKey,
  options?: AnalysisChoice,
) => Promise<AnalysedPage>;

/** How a page is analysed. */
export interface AnalysisChoice {
  /** Render the page in Chromium and run the checks on its DOM (the report's `rendered`). */
  render?: boolean;
}

export interface NewReport extends PrivacyChange, AnalysisChoice {
  /** The page to analyse (normalised; the stored url is where it ended after redirects). */
  url: string;
}

export interface ReportChange extends PrivacyChange, AnalysisChoice {
  /** Analyse the page again: refreshes result, results, rendered and generated_at. */
  rerun?: boolean;
}

const toggle = (on: boolean | undefined): 0 | 1 => (on ? 1 : 0);

/**
 * Every method that analyses rejects, storing nothing, with FetchError (the page could not be
 * analysed), the renderer's error (with `render`: the page could not be rendered),
 * AnalyserBusyError (no slot in time) or `signal`'s reason (the caller went away).
 */
export class ReportService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly pool: AnalysisPool,
    private readonly analysePage: PageAnalyser,
    /** Hears report.created, report.updated and report.deleted (webhooks). */
    private readonly events: EventSink = noEvents,
  ) {}

  /** Analyses `report.url` for `account` and stores the report. */
  async create(account: number, report: NewReport, signal: AbortSignal): Promise<ReportRow> {
    const page = await this.analyse(report.url, account, signal, report);
    const privacy = await applyPrivacy(report, NEW_RESOURCE);
    const row = await this.reports.create({
      user_id: account,
      url: page.url,
      project: page.project,
      result: page.result,
      results: JSON.stringify(page.results),
      privacy: privacy.privacy,
      password_hash: privacy.password_hash,
      rendered: toggle(report.render),
      generated_at: page.generated_at,
    });
    await this.events.publish(account, 'report.created', reportResource(row));
    return row;
  }

  /** Applies `change` to a stored report; undefined when the report was deleted meanwhile. */
  async update(current: StoredReport, change: ReportChange, signal: AbortSignal): Promise<ReportRow | undefined> {
    const page = change.rerun ? await this.analyse(current.url, current.user_id, signal, change) : null;
    const privacy = await applyPrivacy(change, current);
    const row = await this.reports.update(current.user_id, current.id, {
      privacy: privacy.privacy,
      password_hash: privacy.password_hash,
      ...(page
        ? {
            result: page.result,
            results: JSON.stringify(page.results),
            rendered: toggle(change.render),
            generated_at: page.generated_at,
          }
        : {}),
    });
    if (row) await this.events.publish(current.user_id, 'report.updated', reportResource(row));
    return row;
  }

  /** Deletes one of the account's reports; false when it has none with this id. */
  async delete(account: number, id: number): Promise<boolean> {
    if (!(await this.reports.delete(account, id))) return false;
    await this.events.publish(account, 'report.deleted', { id });
    return true;
  }

  /** Deletes the account's reports in `project`; how many (each one is a report.deleted event). */
  async deleteProject(account: number, project: string): Promise<number> {
    const ids = await this.reports.deleteProject(account, project);
    for (const id of ids) await this.events.publish(account, 'report.deleted', { id });
    return ids.length;
  }

  /**
   * Analyses a stored report's page again (as `results=1` does) and stores it; the history item
   * it recorded comes back with it. Undefined when the report was deleted meanwhile.
   */
  async rerun(
    current: StoredReport,
    signal: AbortSignal,
    choice: AnalysisChoice = {},
  ): Promise<{ report: ReportRow; history: ReportHistoryRow } | undefined> {
    const page = await this.analyse(current.url, current.user_id, signal, choice);
    const written = await this.reports.updateRecorded(current.user_id, current.id, {
      result: page.result,
      results: JSON.stringify(page.results),
      rendered: toggle(choice.render),
      generated_at: page.generated_at,
    });
    if (!written?.history) return undefined;
    await this.events.publish(current.user_id, 'report.updated', reportResource(written.report));
    return { report: written.report, history: written.history };
  }

  /**
   * Stores a page a site crawl analysed (docs/site-audits.md): the account's report of that
   * URL gets it as a re-run (privacy kept, a history item); otherwise it becomes a new private
   * report. Each is a report.updated or report.created event. Written on `db`, the transaction of
   * the page writer's batch (its row and links commit with it); `publish` sends the event once
   * that has committed. `rendered`: the checks ran on the page's rendered DOM.
   */
  async recordAnalysedIn(
    db: Kysely<Database>,
    account: number,
    page: AnalysedPage,
    rendered = false,
  ): Promise<{ report: ReportRow; publish: () => Promise<void> }> {
    const { report, created } = await this.reports.recordIn(
      db,
      {
        user_id: account,
        url: page.url,
        project: page.project,
        result: page.result,
        results: JSON.stringify(page.results),
        privacy: Privacy.Private,
        password_hash: null,
        rendered: toggle(rendered),
        generated_at: page.generated_at,
      },
      page.results,
    );
    return {
      report,
      publish: () => this.events.publish(account, created ? 'report.created' : 'report.updated', () => reportResource(report)),
    };
  }

  /** One analysis, in the account's turn. */
  private analyse(url: string, account: number, signal: AbortSignal, choice: AnalysisChoice): Promise<AnalysedPage> {
    const options = { render: choice.render === true };
    return this.pool.run((slotSignal) => this.analysePage(url, slotSignal, account, options), signal, account);
  }
}
