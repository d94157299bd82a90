import { table } from './helpers.js';

const high = 'high' as const;
const url = 'http://example.test/0123456789abcdef0123456789abcdef-404-check';
const html = '<p>x</p>';

table('404_page', [
  {
    name: '404 passes',
    input: { html, notFoundProbe: { url, status: 404 } },
    expected: { passed: true, importance: high, value: url },
  },
  {
    name: '410 passes',
    input: { html, notFoundProbe: { url, status: 410 } },
    expected: { passed: true, importance: high, value: url },
  },
  {
    name: '200 fails',
    input: { html, notFoundProbe: { url, status: 200 } },
    expected: { passed: false, importance: high, value: url, errors: { missing: null } },
  },
  {
    name: '500 fails',
    input: { html, notFoundProbe: { url, status: 500 } },
    expected: { passed: false, importance: high, value: url, errors: { missing: null } },
  },
  {
    name: 'a timeout fails',
    input: { html, notFoundProbe: { url, error: 'timeout' } },
    expected: { passed: false, importance: high, value: url, errors: { missing: null } },
  },
]);
