import { page, table } from './helpers.js';

const high = 'high' as const;

table('headings', [
  {
    name: 'one h1: levels grouped h1→h6 whatever the document order',
    input: page('<title>Shop</title>', '<h2>B</h2><h1>A</h1><h3>C</h3><h2>D</h2><h6>F</h6>'),
    expected: { passed: true, importance: high, value: { h1: ['A'], h2: ['B', 'D'], h3: ['C'], h6: ['F'] } },
  },
  {
    name: 'no headings: [] and missing',
    input: page('<title>t</title>', '<p>x</p>'),
    expected: { passed: false, importance: high, value: [], errors: { missing: null } },
  },
  {
    name: 'no h1: missing',
    input: page('', '<h2>Sub</h2>'),
    expected: { passed: false, importance: high, value: { h2: ['Sub'] }, errors: { missing: null } },
  },
  {
    name: 'first h1 equal to the title ignoring case and whitespace: duplicate',
    input: page('<title>Blue  Widgets</title>', '<h1> blue\nwidgets </h1>'),
    expected: { passed: false, importance: high, value: { h1: ['blue widgets'] }, errors: { duplicate: null } },
  },
  {
    name: 'duplicate beats too_many',
    input: page('<title>Same</title>', '<h1>Same</h1><h1>Other</h1>'),
    expected: { passed: false, importance: high, value: { h1: ['Same', 'Other'] }, errors: { duplicate: null } },
  },
  {
    name: 'two h1: too_many (only the first is compared with the title)',
    input: page('<title>Same</title>', '<h1>Other</h1><h1>Same</h1>'),
    expected: { passed: false, importance: high, value: { h1: ['Other', 'Same'] }, errors: { too_many: null } },
  },
  {
    name: 'an empty h1 is kept as ""',
    input: page('<title>T</title>', '<h1></h1>'),
    expected: { passed: true, importance: high, value: { h1: [''] } },
  },
  {
    name: 'heading text is the collapsed descendant text',
    input: page('', '<h1>Blue <span>widgets</span>\n&amp; more</h1>'),
    expected: { passed: true, importance: high, value: { h1: ['Blue widgets & more'] } },
  },
  {
    name: 'no title: an h1 cannot duplicate it',
    input: '<h1>Alone</h1>',
    expected: { passed: true, importance: high, value: { h1: ['Alone'] } },
  },
  {
    name: 'headings inside <noscript> and <template> count (element-based)',
    input: page('', '<noscript><h1>A</h1></noscript><template><h2>B</h2></template>'),
    expected: { passed: true, importance: high, value: { h1: ['A'], h2: ['B'] } },
  },
]);
