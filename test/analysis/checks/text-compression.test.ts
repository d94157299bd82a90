import { table } from './helpers.js';

const high = 'high' as const;
const html = '<p>x</p>';
const input = (encoding?: string[]) => ({
  html,
  wireBytes: 1234,
  headers: { 'content-type': ['text/html'], ...(encoding ? { 'content-encoding': encoding } : {}) },
});

table('text_compression', [
  { name: 'gzip passes', input: input(['gzip']), expected: { passed: true, importance: high, value: 1234 } },
  { name: 'br passes', input: input(['br']), expected: { passed: true, importance: high, value: 1234 } },
  { name: 'deflate passes', input: input(['deflate']), expected: { passed: true, importance: high, value: 1234 } },
  { name: 'zstd passes', input: input(['zstd']), expected: { passed: true, importance: high, value: 1234 } },
  {
    name: 'a token in a list, any case',
    input: input(['identity, GZIP']),
    expected: { passed: true, importance: high, value: 1234 },
  },
  {
    name: 'no header: missing',
    input: input(),
    expected: { passed: false, importance: high, value: 1234, errors: { missing: null } },
  },
  {
    name: 'identity: missing',
    input: input(['identity']),
    expected: { passed: false, importance: high, value: 1234, errors: { missing: null } },
  },
]);
