import { page, table, withLimits } from './helpers.js';

const low = 'low' as const;
const pass = { passed: true, importance: low, value: null };

table('inline_css', [
  {
    name: 'exactly 50: nothing omitted',
    input: page('', Array.from({ length: 50 }, (_, i) => `<i style="n:${i}"></i>`).join('')),
    expected: { passed: false, importance: low, value: null, errors: { failed: Array.from({ length: 50 }, (_, i) => `n:${i}`) } },
  },
  { name: 'none pass', input: page('', '<p>x</p>'), expected: pass },
  { name: 'one is tolerated', input: page('', '<p style="margin:0">x</p>'), expected: pass },
  {
    name: 'two fail, trimmed, in document order; noscript and template count',
    input: page(
      '',
      '<p style=" color: red ">x</p><noscript><div style="a:b"></div></noscript><template><i style="c:d"></i></template>',
    ),
    expected: { passed: false, importance: low, value: null, errors: { failed: ['color: red', 'a:b', 'c:d'] } },
  },
  {
    name: '<svg> and its content are ignored',
    input: page('', '<svg style="w"><g style="x"><path style="fill:red"/></g></svg><p style="y">x</p>'),
    expected: pass,
  },
  {
    name: 'blank styles are ignored',
    input: page('', '<p style=" ">x</p><p style="">y</p><p style="a:b">z</p>'),
    expected: pass,
  },
  {
    name: 'at most the first 50, the rest counted in omitted',
    input: page('', Array.from({ length: 60 }, (_, i) => `<i style="n:${i}"></i>`).join('')),
    expected: {
      passed: false,
      importance: low,
      value: null,
      errors: { failed: Array.from({ length: 50 }, (_, i) => `n:${i}`) },
      omitted: { '/errors/failed': 10 },
    },
  },
  {
    name: 'the configured sample size',
    input: page('', '<i style="a"></i><i style="b"></i><i style="c"></i>'),
    config: withLimits({ inlineCssSample: 2 }),
    expected: { passed: false, importance: low, value: null, errors: { failed: ['a', 'b'] }, omitted: { '/errors/failed': 1 } },
  },
]);
