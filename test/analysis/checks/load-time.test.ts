import { table } from './helpers.js';

const medium = 'medium' as const;
const html = '<p>x</p>';

table('load_time', [
  { name: 'fast passes', input: { html, loadTime: 0.412 }, expected: { passed: true, importance: medium, value: 0.412 } },
  { name: 'exactly 2 s passes', input: { html, loadTime: 2 }, expected: { passed: true, importance: medium, value: 2 } },
  {
    name: 'slower fails',
    input: { html, loadTime: 2.001 },
    expected: { passed: false, importance: medium, value: 2.001, errors: { too_slow: { max: '2' } } },
  },
]);
