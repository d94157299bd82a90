import { table } from './helpers.js';

const medium = 'medium' as const;

table('page_size', [
  { name: 'default wire bytes are the UTF-8 length', input: 'é€😀', expected: { passed: true, importance: medium, value: 9 } },
  {
    name: '330000 bytes pass',
    input: { html: '', wireBytes: 330000 },
    expected: { passed: true, importance: medium, value: 330000 },
  },
  {
    name: '330001 bytes fail',
    input: { html: '', wireBytes: 330001 },
    expected: { passed: false, importance: medium, value: 330001, errors: { too_large: { max: '330000' } } },
  },
]);
