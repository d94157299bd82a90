import { table } from './helpers.js';

const high = 'high' as const;
const html = '<p>x</p>';

table('https_encryption', [
  {
    name: 'https passes',
    input: { html, finalUrl: 'https://example.test/a' },
    expected: { passed: true, importance: high, value: 'https://example.test/a' },
  },
  {
    name: 'http fails with missing "https"',
    input: { html, finalUrl: 'http://example.test/a' },
    expected: { passed: false, importance: high, value: 'http://example.test/a', errors: { missing: 'https' } },
  },
  {
    name: 'the final URL counts: http redirected to https passes',
    input: { html, requestedUrl: 'http://example.test/a', finalUrl: 'https://example.test/a' },
    expected: { passed: true, importance: high, value: 'https://example.test/a' },
  },
]);
