// bench/lighthouse: Lighthouse's accessibility, best-practices and SEO scores of a public report
// page (and a website page, with two weeks of traffic), and of the dashboard's sign-in page,
// reports list, report detail and website stats page (signed in: the session cookie is sent
// as an extra header), served on 127.0.0.1. Lighthouse is fetched by npx on first use; it
// drives Debian's chromium (CHROME_PATH).
//
//   npm run bench -- lighthouse
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/connection.js';
import { UsersRepository } from '../src/db/users-repository.js';
import { WebsitesRepository } from '../src/db/websites-repository.js';
import { createAccount } from '../src/accounts/accounts.js';
import { hashPassword } from '../src/accounts/passwords.js';
import { seedReport } from '../test/helpers/seed.js';
import { AnalyticsRepository } from '../src/db/analytics-repository.js';
import { systemClock } from '../src/time.js';
import { SAMPLE_FIELDS } from '../src/model/dimensions.js';
import type { StoredEvent } from '../src/model/rollup.js';
import { RESULTS } from './paths.js';

const LIGHTHOUSE = process.env.LIGHTHOUSE_PACKAGE ?? 'lighthouse@12';
const dir = mkdtempSync(join(tmpdir(), 'rankscope-lh-'));
const database = await openDatabase(`sqlite:${join(dir, 'lh.db')}`);
await migrateToLatest(database);
const { user } = await createAccount(new UsersRepository(database.db), 'lighthouse@example.com');
const PASSWORD = 'lighthouse password';
await new UsersRepository(database.db).setPasswordHash(user.id, await hashPassword(PASSWORD));
const report = await seedReport(database, user.id, { privacy: 0 });
for (const [i, result] of [48, 63, 77, 85].entries()) {
  await seedReport(database, user.id, {
    privacy: 0,
    result,
    url: `https://www.example.com/page-${i % 2}`,
    generated_at: `2024-0${i + 1}-01T10:00:00.000000Z`,
  });
}
const website = await new WebsitesRepository(database.db).create({
  user_id: user.id,
  domain: 'www.example.com',
  privacy: 0,
  password_hash: null,
  email: null,
  exclude_bots: 1,
  exclude_ips: null,
  exclude_params: null,
});
// Two weeks of traffic, so the page is audited with its chart, totals and top lists.
const events: StoredEvent[] = [];
for (let d = 0; d < 14; d++) {
  for (let i = 0; i < 3 + (d % 5); i++) {
    const at = Date.now() - d * 86_400_000 - i * 60_000;
    const iso = new Date(at).toISOString();
    events.push({
      ...SAMPLE_FIELDS,
      websiteId: website.id,
      at,
      createdAt: `${iso.slice(0, 23)}000Z`,
      day: iso.slice(0, 10),
      hour: iso.slice(11, 13),
      name: i === 2 ? 'Signup' : 'pageview',
      page: `/page-${i % 4}`,
      visitor: `visitor-${d}-${i % 3}`,
      referrer: i % 2 ? 'news.ycombinator.com' : null,
      source: null,
      campaign: null,
      browser: i % 2 ? 'Firefox' : 'Chrome',
      os: 'Linux',
      device: i % 3 ? 'desktop' : 'mobile',
      country: ['DE', 'US', 'NL'][i % 3],
      continent: ['EU', 'NA', 'EU'][i % 3],
      city: null,
      language: 'en-GB',
      resolution: '1920x1080',
      props: null,
    });
  }
}
await new AnalyticsRepository(database.db, database.engine, systemClock).record(events);
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' }), database });
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const signedIn = await fetch(`${base}/login`, {
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ email: user.email, password: PASSWORD }).toString(),
});
const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
if (signedIn.status !== 303 || !cookie.startsWith('rankscope_session=')) throw new Error(`sign-in answered ${signedIn.status}`);

const rows: string[] = [];
try {
  for (const [name, path, session] of [
    ['report page', `/reports/${report.id}`, false],
    ['website page', `/websites/${website.id}`, false],
    ['dashboard: sign-in', '/login', false],
    ['dashboard: reports list', '/app/reports', true],
    ['dashboard: report detail', `/app/reports/${report.id}`, true],
    ['dashboard: website stats', `/app/websites/${website.id}/stats`, true],
  ] as const) {
    const out = join(dir, `${name.replace(/[^a-z]+/g, '-')}.json`);
    // async: the server answering Lighthouse lives in this very process. Lighthouse sometimes
    // fails to record its trace on a loaded machine (NO_NAVSTART): up to three attempts.
    for (let attempt = 1; ; attempt++) {
      try {
        await promisify(execFile)(
          'npx',
          [
            '-y',
            LIGHTHOUSE,
            base + path,
            '--quiet',
            '--output=json',
            `--output-path=${out}`,
            '--only-categories=performance,accessibility,best-practices,seo',
            ...(session ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
            '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync',
          ],
          { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
        );
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        console.error(
          `${name}: Lighthouse failed (attempt ${attempt}), again: ${String((error as { stderr?: string }).stderr ?? error).trim()}`,
        );
      }
    }
    const lhr = JSON.parse(readFileSync(out, 'utf8')) as {
      lighthouseVersion: string;
      categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>;
      audits: Record<string, { score: number | null }>;
    };
    const score = (c: string) => Math.round(lhr.categories[c].score * 100);
    // The weighted audits that did not pass fully, so a score below 100 says why.
    const missed = ['accessibility', 'best-practices', 'seo']
      .flatMap((c) => lhr.categories[c].auditRefs)
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
    rows.push(
      `| ${name} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${score('performance')} | ${missed.join(', ') || 'none'} | ${lhr.lighthouseVersion} |`,
    );
  }
} finally {
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
const text = [
  `## bench/lighthouse — ${new Date().toISOString().slice(0, 10)}, headless Chromium on 127.0.0.1`,
  '',
  '| page | accessibility | best practices | SEO | performance | audits missed | Lighthouse |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'The dashboard pages carry `noindex` (they are private to an account), which Lighthouse’s SEO category counts against them (`is-crawlable`); the targets for them are accessibility and best practices.',
  '',
].join('\n');
console.log(text);
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'lighthouse.md'), text);
