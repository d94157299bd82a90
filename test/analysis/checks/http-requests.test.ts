import { page, table } from './helpers.js';

const medium = 'medium' as const;

table('http_requests', [
  {
    name: 'none: []',
    input: page('<script>inline()</script>', '<p>x</p>'),
    expected: { passed: true, importance: medium, value: [] },
  },
  {
    name: 'four groups in order, one entry per element, duplicates kept',
    input: page(
      '<link rel="stylesheet" href="/a.css"><link rel="preload" href="/p.js"><link rel="Alternate Stylesheet" href="/b.css"><script src="/app.js"></script>',
      '<iframe src="/frame"></iframe><img src="/i.png"><img src="/i.png"><script src="/app.js"></script>' +
        '<img loading="lazy" src="/lazy.png"><iframe loading=" LAZY " src="/lazy"></iframe><img src=" "><script src=""></script>' +
        '<noscript><img src="/ns.gif"></noscript>',
    ),
    expected: {
      passed: true,
      importance: medium,
      value: {
        JavaScripts: ['http://example.test/app.js', 'http://example.test/app.js'],
        CSS: ['http://example.test/a.css', 'http://example.test/b.css'],
        Images: ['http://example.test/i.png', 'http://example.test/i.png', 'http://example.test/ns.gif'],
        Iframes: ['http://example.test/frame'],
      },
    },
  },
  {
    name: '51 requests: too_many',
    input: page('', '<img src="/i.png">'.repeat(51)),
    expected: {
      passed: false,
      importance: medium,
      value: { Images: Array(51).fill('http://example.test/i.png') },
      errors: { too_many: { max: '50' } },
    },
  },
]);
