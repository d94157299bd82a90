import { table } from './helpers.js';

const high = 'high' as const;
const pass = { passed: true, importance: high, value: null };
const blockedBy = (pattern: string) => ({ passed: false, importance: high, value: null, errors: { failed: [pattern] } });
const unknown = { passed: false, importance: high, value: null, errors: { failed: null } };
const html = '<p>x</p>';
const robots = (body: string, path = '/page') => ({
  html,
  finalUrl: `http://example.test${path}`,
  robots: { url: 'http://example.test/robots.txt', status: 200, body },
});

table('robots', [
  { name: 'robots.txt 404: allowed', input: html, expected: pass },
  {
    name: 'a disallowed path fails with the pattern as written',
    input: robots('User-agent: *\nDisallow: /private/', '/private/x'),
    expected: blockedBy('/private/'),
  },
  { name: 'other paths pass', input: robots('User-agent: *\nDisallow: /private/', '/public'), expected: pass },
  {
    name: 'our group replaces the * group',
    input: robots('User-agent: *\nDisallow: /\n\nUser-agent: RankscopeBot\nDisallow: /nothing-here'),
    expected: pass,
  },
  {
    name: 'the groups naming us are merged; the token matches case-insensitively, version ignored',
    input: robots(
      'User-agent: rankscopebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /page\n\nUser-agent: RankscopeBot/2.0\nDisallow: /pa',
    ),
    expected: blockedBy('/pa'),
  },
  {
    name: 'consecutive user-agent lines share one group',
    input: robots('User-agent: otherbot\nUser-agent: RankscopeBot\nDisallow: /page'),
    expected: blockedBy('/page'),
  },
  { name: 'rules before the first group are ignored', input: robots('Disallow: /\nUser-agent: *\nAllow: /x'), expected: pass },
  { name: 'the longest match decides', input: robots('User-agent: *\nDisallow: /a\nAllow: /a/b', '/a/b/c'), expected: pass },
  {
    name: 'the longest match decides (disallow)',
    input: robots('User-agent: *\nAllow: /a\nDisallow: /a/c', '/a/c'),
    expected: blockedBy('/a/c'),
  },
  { name: 'allow wins a tie', input: robots('User-agent: *\nDisallow: /page\nAllow: /page'), expected: pass },
  {
    name: '* matches any run, including in the query',
    input: robots('User-agent: *\nDisallow: /*?', '/page?x=1'),
    expected: blockedBy('/*?'),
  },
  { name: '/*? does not block a URL without a query', input: robots('User-agent: *\nDisallow: /*?', '/page'), expected: pass },
  { name: '$ anchors the end', input: robots('User-agent: *\nDisallow: /*.pdf$', '/doc.pdf'), expected: blockedBy('/*.pdf$') },
  { name: '$ anchored: a longer path passes', input: robots('User-agent: *\nDisallow: /*.pdf$', '/doc.pdf?x=1'), expected: pass },
  {
    name: 'percent-encoding of unreserved characters is normalised',
    input: robots('User-agent: *\nDisallow: /%7Ejoe', '/~joe/x'),
    expected: blockedBy('/%7Ejoe'),
  },
  {
    name: 'non-ASCII in the pattern matches the encoded URL',
    input: robots('User-agent: *\nDisallow: /café', '/caf%C3%A9'),
    expected: blockedBy('/café'),
  },
  {
    name: 'escapes compare case-insensitively',
    input: robots('User-agent: *\nDisallow: /caf%c3%a9', '/café'),
    expected: blockedBy('/caf%c3%a9'),
  },
  { name: '/robots.txt itself is always allowed', input: robots('User-agent: *\nDisallow: /', '/robots.txt'), expected: pass },
  {
    name: 'a BOM, comments and field case are handled',
    input: robots('\uFEFFUSER-AGENT: * # all\nDISALLOW: /page # not this'),
    expected: blockedBy('/page'),
  },
  { name: 'an empty Disallow allows everything', input: robots('User-agent: *\nDisallow:'), expected: pass },
  { name: 'no group for us and no * group: allowed', input: robots('User-agent: otherbot\nDisallow: /'), expected: pass },
  {
    name: 'the query is part of the path matched',
    input: robots('User-agent: *\nDisallow: /search?q=', '/search?q=x'),
    expected: blockedBy('/search?q='),
  },
  {
    name: 'robots.txt 5xx: failed null',
    input: { html, robots: { url: 'http://example.test/robots.txt', status: 503, body: '' } },
    expected: unknown,
  },
  { name: 'robots.txt unreachable: failed null', input: { html, robots: { error: 'timeout' } }, expected: unknown },
  { name: 'more than 5 redirects: allowed', input: { html, robots: { error: 'too_many_redirects' } }, expected: pass },
  {
    name: 'robots.txt 401: allowed',
    input: { html, robots: { url: 'http://example.test/robots.txt', status: 401, body: 'User-agent: *\nDisallow: /' } },
    expected: pass,
  },
]);
