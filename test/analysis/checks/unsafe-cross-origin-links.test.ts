import { page, table } from './helpers.js';

const medium = 'medium' as const;
const pass = { passed: true, importance: medium, value: null };

table('unsafe_cross_origin_links', [
  { name: 'no links pass', input: page('', 'x'), expected: pass },
  {
    name: 'external _blank without noopener/noreferrer fails, one entry per link',
    input: page(
      '',
      '<a href="https://x.example/a#f" target="_blank">A</a><a href="https://x.example/a" target=" _BLANK ">A</a><a href="https://y.example/" target="_blank" rel="nofollow">B</a>',
    ),
    expected: {
      passed: false,
      importance: medium,
      value: null,
      errors: { failed: ['https://x.example/a', 'https://x.example/a', 'https://y.example/'] },
    },
  },
  {
    name: 'noopener or noreferrer protect',
    input: page(
      '',
      '<a href="https://x.example/" target="_blank" rel="noopener">A</a><a href="https://x.example/" target="_blank" rel="external NoReferrer">B</a>',
    ),
    expected: pass,
  },
  {
    name: 'internal links (www. ignored) are fine',
    input: page('', '<a href="/a" target="_blank">A</a><a href="https://www.example.test/" target="_blank">B</a>'),
    expected: pass,
  },
  {
    name: 'non-http links are ignored',
    input: page('', '<a href="mailto:a@b.test" target="_blank">m</a><a href="javascript:x()" target="_blank">j</a>'),
    expected: pass,
  },
  {
    name: 'other targets are fine',
    input: page('', '<a href="https://x.example/" target="_self">A</a><a href="https://x.example/">B</a>'),
    expected: pass,
  },
]);
