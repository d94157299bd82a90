import { page, table, withLimits } from './helpers.js';

const high = 'high' as const;
const length60 = { length: { min: '1', max: '60' } };

table('title', [
  {
    name: 'one title passes',
    input: page('<title>Hello world</title>'),
    expected: { passed: true, importance: high, value: 'Hello world' },
  },
  {
    name: 'no title: missing',
    input: page('<meta charset="utf-8">'),
    expected: { passed: false, importance: high, value: null, errors: { missing: null } },
  },
  {
    name: 'blank title: missing',
    input: page('<title> \n\t </title>'),
    expected: { passed: false, importance: high, value: null, errors: { missing: null } },
  },
  {
    name: 'two titles: too_many, value is the first',
    input: page('<title>First</title><title>Second</title>'),
    expected: { passed: false, importance: high, value: 'First', errors: { too_many: null } },
  },
  {
    name: 'missing beats too_many (first title blank)',
    input: page('<title> </title><title>Second</title>'),
    expected: { passed: false, importance: high, value: null, errors: { missing: null } },
  },
  {
    name: 'too_many beats length',
    input: page(`<title>${'x'.repeat(61)}</title><title>B</title>`),
    expected: { passed: false, importance: high, value: 'x'.repeat(61), errors: { too_many: null } },
  },
  {
    name: '61 code points: length, limits as strings',
    input: page(`<title>${'x'.repeat(61)}</title>`),
    expected: { passed: false, importance: high, value: 'x'.repeat(61), errors: length60 },
  },
  {
    name: '60 astral characters are 60 code points (120 UTF-16 units)',
    input: page(`<title>${'😀'.repeat(60)}</title>`),
    expected: { passed: true, importance: high, value: '😀'.repeat(60) },
  },
  {
    name: '61 astral characters fail',
    input: page(`<title>${'😀'.repeat(61)}</title>`),
    expected: { passed: false, importance: high, value: '😀'.repeat(61), errors: length60 },
  },
  {
    name: 'whitespace is collapsed (and counted after collapsing)',
    input: page('<title>  Blue \n\u00a0 Widgets  </title>'),
    expected: { passed: true, importance: high, value: 'Blue Widgets' },
  },
  {
    name: 'entities are decoded',
    input: page('<title>Tom &amp; Jerry&#39;s</title>'),
    expected: { passed: true, importance: high, value: "Tom & Jerry's" },
  },
  {
    name: 'markup inside <title> is text',
    input: page('<title>a <b>bold</b> title</title>'),
    expected: { passed: true, importance: high, value: 'a <b>bold</b> title' },
  },
  {
    name: 'a <title> inside <svg> is never the page title',
    input: page('<svg><title>Icon</title></svg>'),
    expected: { passed: false, importance: high, value: null, errors: { missing: null } },
  },
  {
    name: 'an svg title in the body does not make two titles',
    input: page('<title>Real</title>', '<svg><title>Icon</title></svg>'),
    expected: { passed: true, importance: high, value: 'Real' },
  },
  {
    name: 'with a <head>, a title in the body does not count',
    input: page('', '<title>Late</title>'),
    expected: { passed: false, importance: high, value: null, errors: { missing: null } },
  },
  {
    name: 'without a <head>, the whole document is the head',
    input: '<title>Headless</title><p>text</p>',
    expected: { passed: true, importance: high, value: 'Headless' },
  },
  {
    name: 'configured limits are reported as configured',
    input: page('<title>Eleven char</title>'),
    config: withLimits({ minTitle: 2, maxTitle: 10 }),
    expected: { passed: false, importance: high, value: 'Eleven char', errors: { length: { min: '2', max: '10' } } },
  },
]);
