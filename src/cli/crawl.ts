// `rankscope crawl <url> [--max-pages N] [--json|--csv]`: a whole site audit with no server
// (docs/site-audits.md). The same crawl the API starts, run by this process's own job
// workers on DATABASE_URL, as the first account (ADMIN_EMAIL, created if the database has
// none): its reports land there like any other crawl's.
import { parseArgs } from 'node:util';
import { ensureFirstAccount } from '../accounts/accounts.js';
import { normalizeTargetUrl } from '../analysis/analyze.js';
import { FetchError } from '../analysis/errors.js';
import {
  CRAWL_PAGE_COLUMNS,
  crawlIssueCountResource,
  crawlIssueResource,
  crawlPageCsvRow,
  crawlPageResource,
  crawlResource,
  DEFAULT_MAX_PAGES,
} from '../resources/crawl.js';
import { csvLines } from '../http/csv.js';
import { loadConfig, type AppConfig, type Env } from '../config.js';
import type { CrawlRow, CrawlsRepository } from '../db/crawls-repository.js';
import { migrateToLatest, openDatabase } from '../db/connection.js';
import { silentLog } from '../jobs/log.js';
import { UsersRepository } from '../db/users-repository.js';
import { CRAWL_JOB_TYPES } from '../crawl/crawl-service.js';
import { buildServices } from '../services.js';
import { RENDER_NEEDS_CHROMIUM } from '../browser/renderer.js';
import type { CliIo } from './io.js';

const HELP = `Usage: rankscope crawl <url> [--max-pages N] [--no-external] [--render] [--json | --csv]

Audits a whole site without a server: follows the start page's links and the
site's sitemaps on its host (and its www. twin), analyses every HTML page (a
report each, in the first account), and finds the site-level issues (broken
links, redirect chains, duplicate titles, orphans, sitemap mistakes).

Options:
  --max-pages N   URLs to record at most (1 to CRAWL_MAX_PAGES; default 100)
  --no-sitemap    follow links only (do not read robots.txt Sitemap: lines or
                  /sitemap.xml)
  --no-external   check no link to another site, no image and no hreflang
                  target on another site (no request leaves the site's host)
  --render        load each HTML page in headless Chromium (JavaScript on):
                  analyse the DOM it built, follow the links it has, and
                  report what the scripts changed (needs Chromium, at
                  CHROMIUM_PATH or /usr/bin/chromium)
  --json          print {"crawl", "pages", "issues", "summary"} as one JSON
                  object (summary: the issues counted by type, most severe
                  first, as the API's /issues/summary)
  --csv           print the pages as CSV
  -h, --help      show this help

Without --json or --csv a summary is printed. Progress goes to stderr, and only
on a terminal. Ctrl-C cancels the crawl.

Exit status: 0 when the crawl ran, whatever it found; 1 when the start page
could not be fetched; 2 for a usage or settings error.

Settings come from the environment: DATABASE_URL, CRAWL_CONCURRENCY,
CRAWL_MAX_PAGES, CRAWL_MAX_EXTERNAL, CRAWL_TIME_LIMIT, ALLOW_PRIVATE_ADDRESSES,
REQUEST_TIMEOUT, CHROMIUM_PATH, RENDER_CONCURRENCY, RENDER_TIMEOUT…
`;

const ENDED = new Set(['finished', 'failed', 'cancelled']);
const POLL_MS = 50;

export interface CrawlCommandOptions {
  env?: Env;
}

export async function runCrawl(args: string[], io: CliIo, options: CrawlCommandOptions = {}): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    io.stderr.write(`rankscope crawl: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(HELP);
    return 0;
  }
  let config: AppConfig;
  try {
    config = loadConfig(options.env ?? process.env);
  } catch (error) {
    io.stderr.write(`rankscope crawl: ${(error as Error).message}\n`);
    return 2;
  }
  const maxPages = parsed.maxPages ?? Math.min(DEFAULT_MAX_PAGES, config.crawl.maxPages);
  if (maxPages > config.crawl.maxPages) {
    io.stderr.write(`rankscope crawl: --max-pages must be at most CRAWL_MAX_PAGES (${config.crawl.maxPages})\n`);
    return 2;
  }
  let url: string;
  try {
    url = normalizeTargetUrl(parsed.url).href;
  } catch (error) {
    io.stderr.write(`rankscope crawl: ${error instanceof FetchError ? error.message : String(error)}\n`);
    return 2;
  }
  // Lean: a 10,000-page crawl's resident size stays well inside its budget (bench/results/crawl.md).
  const database = await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize, memory: 'lean' });
  // Pages are parsed and checked in this thread, as `rankscope analyze` does: a crawl's pages
  // come one after another, and handing each to a worker thread and back cost more than the
  // parallelism gained (bench/crawl: about a quarter of the wall time on two cores).
  const services = buildServices({ config, database, log: silentLog, engineWorkers: false });
  const progress = progressLine(io);
  let crawl: CrawlRow | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await services.close();
  };
  const onSigint = () => {
    if (crawl) void services.crawls.cancel(crawl.user_id, crawl.id);
  };
  try {
    if (parsed.render && !services.renderer.available()) {
      io.stderr.write(`rankscope crawl: ${RENDER_NEEDS_CHROMIUM}\n`);
      return 2;
    }
    await migrateToLatest(database);
    const refused = await services.crawls.refusedStart(url);
    if (refused !== null) {
      io.stderr.write(`rankscope crawl: ${url}: ${refused}\n`);
      return 1;
    }
    const users = new UsersRepository(database.db);
    const first = await ensureFirstAccount(users, config.adminEmail);
    if (first) {
      io.stderr.write(
        `Created the first account, ${first.email}. Its API key, shown only this once:\n${first.key}\n` +
          `(a dashboard password: npx rankscope users password ${first.email})\n`,
      );
    }
    const account = await users.findByEmail(config.adminEmail);
    if (!account) {
      io.stderr.write(`rankscope crawl: no account ${config.adminEmail} (ADMIN_EMAIL) to crawl as\n`);
      return 2;
    }
    crawl = await services.crawls.create(account.id, {
      url,
      max_pages: maxPages,
      sitemap: parsed.sitemap ? 1 : 0,
      external: parsed.external ? 1 : 0,
      render: parsed.render ? 1 : 0,
    });
    process.once('SIGINT', onSigint);
    // Its own crawl's jobs only, and no schedules: a crawl from the terminal sends no digest
    // and runs no monitor of the database it shares with a server.
    await services.jobs.start(CRAWL_JOB_TYPES);
    for (;;) {
      crawl = (await services.repos.crawls.findById(crawl.id))!;
      progress.show(crawl);
      if (ENDED.has(crawl.status)) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    progress.done();
    await close();
    await write(io, parsed.format, crawl, services.repos.crawls);
    if (crawl.status === 'failed') {
      io.stderr.write(`rankscope crawl: the start page could not be fetched: ${crawl.error ?? 'unknown reason'}\n`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    await close();
    await database.close();
  }
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'max-pages': { type: 'string' },
      'no-sitemap': { type: 'boolean' },
      'no-external': { type: 'boolean' },
      render: { type: 'boolean' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    return {
      help: true as const,
      url: '',
      maxPages: undefined,
      sitemap: true,
      external: true,
      render: false,
      format: 'summary' as const,
    };
  }
  if (positionals.length !== 1) throw new Error('give exactly one start URL');
  if (values.json && values.csv) throw new Error('--json and --csv cannot be combined');
  let maxPages: number | undefined;
  if (values['max-pages'] !== undefined) {
    maxPages = Number(values['max-pages']);
    if (!/^\d+$/.test(values['max-pages']) || maxPages < 1) throw new Error('--max-pages must be a whole number of at least 1');
  }
  return {
    help: false as const,
    url: positionals[0],
    maxPages,
    sitemap: !values['no-sitemap'],
    external: !values['no-external'],
    render: values.render === true,
    format: values.json ? ('json' as const) : values.csv ? ('csv' as const) : ('summary' as const),
  };
}

/**
 * The output, written a batch of pages and issues at a time (a 100,000-page crawl and its issues
 * are never held whole), respecting backpressure.
 */
async function write(io: CliIo, format: 'json' | 'csv' | 'summary', crawl: CrawlRow, repo: CrawlsRepository): Promise<void> {
  const out = (text: string) =>
    new Promise<void>((resolve, reject) => io.stdout.write(text, (error) => (error ? reject(error) : resolve())));
  if (format === 'csv') {
    await out(csvLines([CRAWL_PAGE_COLUMNS]));
    for await (const batch of repo.allPages(crawl.id))
      await out(csvLines(batch.map((row) => crawlPageCsvRow(crawlPageResource(row)))));
    return;
  }
  const summary = (await repo.issueSummary(crawl.id)).map(crawlIssueCountResource);
  if (format === 'json') {
    await out(`{"crawl":${JSON.stringify(crawlResource(crawl))},"pages":[`);
    let first = true;
    for await (const batch of repo.allPages(crawl.id)) {
      const text = batch.map((row) => JSON.stringify(crawlPageResource(row))).join(',');
      await out(first ? text : `,${text}`);
      first = false;
    }
    await out('],"issues":[');
    first = true;
    for await (const batch of repo.allIssues(crawl.id)) {
      const text = batch.map((row) => JSON.stringify(crawlIssueResource(row))).join(',');
      await out(first ? text : `,${text}`);
      first = false;
    }
    await out(`],"summary":${JSON.stringify(summary)}}\n`);
    return;
  }
  const shown = crawlResource(crawl);
  const total = summary.reduce((sum, row) => sum + row.count, 0);
  // One line each, as a terminal shows it safely: no control characters from the site's text.
  const text = (lines: string[]) => `${lines.map((line) => line.replace(/\p{Cc}/gu, ' ')).join('\n')}\n`;
  await out(
    text([
      `${shown.url}: ${shown.status}`,
      `  ${shown.pages_found} URLs found, ${shown.pages_done} answered, ${shown.pages_failed} without an answer`,
      `  mean score: ${shown.result ?? '—'}`,
      `  ${total} site-level ${total === 1 ? 'issue' : 'issues'}${total > 0 ? ':' : ''}`,
    ]),
  );
  for await (const batch of repo.allIssues(crawl.id)) {
    const issues = batch.map(crawlIssueResource);
    await out(text(issues.flatMap((issue) => [`  [${issue.severity}] ${issue.type} ${issue.url}`, `      ${issue.detail}`])));
  }
}

/** A one-line progress bar on stderr when it is a terminal; nothing otherwise (stdout stays clean). */
function progressLine(io: CliIo) {
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  let drawn = false;
  return {
    show(crawl: CrawlRow) {
      if (!tty) return;
      const total = Math.max(crawl.pages_found, 1);
      const done = crawl.pages_done + crawl.pages_failed;
      const width = 30;
      const filled = Math.min(width, Math.round((done / Math.min(total, crawl.max_pages)) * width));
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${crawl.pages_found} pages, ${crawl.pages_failed} failed (${crawl.status})\x1b[K`,
      );
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\n');
    },
  };
}
