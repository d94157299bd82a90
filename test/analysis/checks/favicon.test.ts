import { page, table } from './helpers.js';

const medium = 'medium' as const;
const missing = { passed: false, importance: medium, value: null, errors: { missing: null } };
const found = (value: string) => ({ passed: true, importance: medium, value });

table('favicon', [
  {
    name: 'rel=icon, resolved',
    input: page('<link rel="icon" href="/icon.png">'),
    expected: found('http://example.test/icon.png'),
  },
  {
    name: 'shortcut icon, any case',
    input: page('<link rel="Shortcut ICON" href="fav.ico">'),
    expected: found('http://example.test/fav.ico'),
  },
  {
    name: 'the first icon link wins; blank hrefs are skipped',
    input: page('<link rel="icon" href=" "><link rel="icon" href="/a.png"><link rel="icon" href="/b.png">'),
    expected: found('http://example.test/a.png'),
  },
  {
    name: 'apple-touch-icon alone does not count',
    input: page('<link rel="apple-touch-icon" href="/t.png"><link rel="mask-icon" href="/m.svg">'),
    expected: missing,
  },
  { name: 'a link in the body does not count', input: page('', '<link rel="icon" href="/late.png">'), expected: missing },
  {
    name: 'resolved against <base href>',
    input: page('<base href="https://cdn.example/s/"><link rel="icon" href="i.png">'),
    expected: found('https://cdn.example/s/i.png'),
  },
  {
    name: '/favicon.ico answering 200 with an image counts, port kept',
    input: { html: page(''), finalUrl: 'http://127.0.0.1:8080/a/b', faviconProbe: { status: 200, contentType: 'image/x-icon' } },
    expected: found('http://127.0.0.1:8080/favicon.ico'),
  },
  {
    name: '/favicon.ico with a parameterised image type counts',
    input: { html: page(''), faviconProbe: { status: 200, contentType: 'Image/PNG; q=1' } },
    expected: found('http://example.test/favicon.ico'),
  },
  {
    name: '/favicon.ico answering HTML: missing',
    input: { html: page(''), faviconProbe: { status: 200, contentType: 'text/html' } },
    expected: missing,
  },
  {
    name: '/favicon.ico 404: missing',
    input: { html: page(''), faviconProbe: { status: 404, contentType: 'image/x-icon' } },
    expected: missing,
  },
  { name: '/favicon.ico failed: missing', input: { html: page(''), faviconProbe: { error: 'timeout' } }, expected: missing },
]);
