import { page, table } from './helpers.js';

const high = 'high' as const;
const pass = { passed: true, importance: high, value: null };
const blocked = (value: string) => ({ passed: false, importance: high, value, errors: { missing: null } });
const header = (...values: string[]) => ({ html: page(''), headers: { 'content-type': ['text/html'], 'x-robots-tag': values } });

table('noindex', [
  { name: 'nothing: pass', input: page('<meta name="robots" content="index, follow, nofollow">'), expected: pass },
  {
    name: 'meta robots noindex, content as written',
    input: page('<meta name="robots" content=" NoIndex , follow">'),
    expected: blocked(' NoIndex , follow'),
  },
  { name: 'meta googlebot none', input: page('<meta name="Googlebot" content="none">'), expected: blocked('none') },
  { name: 'other crawlers’ metas are ignored', input: page('<meta name="bingbot" content="noindex">'), expected: pass },
  {
    name: 'a directive is a whole comma-separated item',
    input: page('<meta name="robots" content="noindexing, nonesuch">'),
    expected: pass,
  },
  {
    name: 'a meta in the body (with a head) is ignored',
    input: page('', '<meta name="robots" content="noindex">'),
    expected: pass,
  },
  { name: 'X-Robots-Tag noindex', input: header('noindex'), expected: blocked('noindex') },
  { name: 'X-Robots-Tag for another crawler is ignored', input: header('otherbot: noindex'), expected: pass },
  {
    name: 'X-Robots-Tag for googlebot counts',
    input: header('googlebot: noindex, nofollow'),
    expected: blocked('googlebot: noindex, nofollow'),
  },
  {
    name: 'X-Robots-Tag for our token counts, any case',
    input: header('rankscopebot: NONE'),
    expected: blocked('rankscopebot: NONE'),
  },
  {
    name: 'a valued directive is no crawler prefix',
    input: header('unavailable_after: 25 Jun 2010 15:00:00 PST'),
    expected: pass,
  },
  { name: 'every header value is read', input: header('nofollow', 'noindex'), expected: blocked('noindex') },
  {
    name: 'a blocking meta is reported before a blocking header',
    input: { html: page('<meta name="robots" content="none">'), headers: { 'x-robots-tag': ['noindex'] } },
    expected: blocked('none'),
  },
]);
