import { table } from './helpers.js';

const low = 'low' as const;

table('dom_size', [
  {
    name: 'counts elements only (no text, comments or doctype)',
    input: '<!DOCTYPE html><html><head><!-- c --></head><body><p>a</p></body></html>',
    expected: { passed: true, importance: low, value: 4 },
  },
  {
    name: 'no implied html/head/body/tbody',
    input: '<table><tr><td>x</td></tr></table>',
    expected: { passed: true, importance: low, value: 3 },
  },
  { name: '1500 elements pass', input: '<i></i>'.repeat(1500), expected: { passed: true, importance: low, value: 1500 } },
  {
    name: '1501 fail',
    input: '<i></i>'.repeat(1501),
    expected: { passed: false, importance: low, value: 1501, errors: { too_many: { max: '1500' } } },
  },
]);
