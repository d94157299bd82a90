// CSV injection (OWASP): a cell a spreadsheet would run as a formula is written with a leading
// `'`, in the one CSV writer every export goes through: stats (format=csv), crawl pages
// (format=csv, the dashboard's download, the CLI's --csv), crawl links (format=csv).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { csvField, csvLines, toCsv } from '../../src/http/csv.js';
import { CRAWL_LINK_COLUMNS, CRAWL_PAGE_COLUMNS, crawlLinkCsvRow, crawlPageCsvRow } from '../../src/resources/crawl.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

test('a cell beginning with =, +, -, @, a tab or a carriage return gets a leading quote; others are as they were', () => {
  assert.equal(csvField('=HYPERLINK("https://evil.example/","Click")'), `"'=HYPERLINK(""https://evil.example/"",""Click"")"`);
  assert.equal(csvField('+1+1'), "'+1+1");
  assert.equal(csvField('-2+3'), "'-2+3");
  assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvField('\tcmd'), "'\tcmd");
  assert.equal(csvField('\rcmd'), `"'\rcmd"`, 'escaped, then quoted for the line break');
  assert.equal(csvField('a=b'), 'a=b', 'only the first character counts');
  assert.equal(csvField(' =x'), ' =x');
  assert.equal(csvField('/page'), '/page');
  assert.equal(csvField(''), '');
  assert.equal(csvField(-1), '-1', 'a number is counted here, never a formula');
  assert.equal(csvLines([['=1', 2]]), "'=1,2\r\n");
  assert.equal(toCsv(['value', 'count'], [['@x', 1]]), "value,count\r\n'@x,1\r\n");
});

test('crawl pages: a row is written through the same writer', () => {
  const row = crawlPageCsvRow({
    url: '=cmd|/C calc!A0',
    status_code: 200,
    depth: 0,
    report_id: 1,
    result: 90,
    in_sitemap: true,
    indexable: false,
    error: '-bad',
  });
  assert.equal(toCsv(CRAWL_PAGE_COLUMNS, [row]).split('\r\n')[1], "'=cmd|/C calc!A0,200,0,1,90,1,0,'-bad");
});

test('crawl links: a row is written through the same writer', () => {
  const row = crawlLinkCsvRow({
    url: '@http://x.test/',
    kind: 'link',
    status_code: null,
    final_url: null,
    error: '+e',
    pages: 2,
  });
  assert.equal(toCsv(CRAWL_LINK_COLUMNS, [row]).split('\r\n')[1], "'@http://x.test/,link,,,'+e,2");
});

describe('GET /api/v1/stats/{website}?format=csv with values a visitor chose', () => {
  let t: TestApp;
  let key: string;
  let site: number;
  const clock = fixedClock(Date.parse('2026-11-02T10:00:00Z'));

  before(async () => {
    t = await testApp({}, { clock });
    ({ key } = await t.account());
    const res = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'csv.example' } });
    site = res.json().data.id;
    const names = ['=HYPERLINK("https://evil.example/","Click")', '+SUM(1)', '-1+2', '@cmd', 'Plain'];
    for (const n of names) {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/event',
        headers: { 'content-type': 'application/json', 'user-agent': CHROME },
        payload: JSON.stringify({ n, u: 'https://csv.example/', i: site }),
      });
      assert.equal(sent.statusCode, 202, sent.body);
    }
  });

  test('every formula-like value is written with a leading quote, the rest as it was', async () => {
    const res = await t.call(key, {
      method: 'GET',
      url: `/api/v1/stats/${site}?name=event&from=2026-11-02&to=2026-11-02&format=csv&sort_by=value&sort=asc`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(
      res.body,
      'value,count\r\n' +
        "'+SUM(1),1\r\n" +
        "'-1+2,1\r\n" +
        `"'=HYPERLINK(""https://evil.example/"",""Click"")",1\r\n` +
        "'@cmd,1\r\n" +
        'Plain,1\r\n',
    );
  });
});
