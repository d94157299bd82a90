import { page, table } from './helpers.js';

const low = 'low' as const;

table('social', [
  {
    name: 'none: [] and missing',
    input: page('', '<a href="https://example.org/">x</a>'),
    expected: { passed: false, importance: low, value: [], errors: { missing: null } },
  },
  {
    name: 'groups in table order, links in document order, www. ignored',
    input: page(
      '',
      '<a href="https://www.pinterest.com/p">Pin</a><a href="https://www.facebook.com/shop#top"> Our \n page </a><a href="https://x.com/shop">X</a>' +
        '<a href="https://twitter.com/shop">Tw</a><a href="https://tiktok.com/@shop">Tok</a><a href="https://instagram.com/s">I</a>' +
        '<a href="https://youtube.com/s">Y</a><a href="https://www.linkedin.com/company/s">L</a>',
    ),
    expected: {
      passed: true,
      importance: low,
      value: {
        Twitter: [
          { url: 'https://x.com/shop', text: 'X' },
          { url: 'https://twitter.com/shop', text: 'Tw' },
        ],
        Facebook: [{ url: 'https://www.facebook.com/shop', text: 'Our page' }],
        Instagram: [{ url: 'https://instagram.com/s', text: 'I' }],
        YouTube: [{ url: 'https://youtube.com/s', text: 'Y' }],
        LinkedIn: [{ url: 'https://www.linkedin.com/company/s', text: 'L' }],
        TikTok: [{ url: 'https://tiktok.com/@shop', text: 'Tok' }],
        Pinterest: [{ url: 'https://www.pinterest.com/p', text: 'Pin' }],
      },
    },
  },
  {
    name: 'other subdomains and look-alikes do not count',
    input: page(
      '',
      '<a href="https://m.facebook.com/x">m</a><a href="https://facebook.com.evil.test/">e</a><a href="https://notx.com/">n</a>',
    ),
    expected: { passed: false, importance: low, value: [], errors: { missing: null } },
  },
]);
