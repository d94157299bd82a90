import { table } from './helpers.js';

const medium = 'medium' as const;
const missing = { passed: false, importance: medium, value: null, errors: { missing: null } };

table('language', [
  {
    name: 'kept as written',
    input: '<html lang="en-US"><body>x</body></html>',
    expected: { passed: true, importance: medium, value: 'en-US' },
  },
  {
    name: 'trimmed, not validated',
    input: '<html lang=" klingon "></html>',
    expected: { passed: true, importance: medium, value: 'klingon' },
  },
  { name: 'absent: missing', input: '<html><body>x</body></html>', expected: missing },
  { name: 'blank: missing', input: '<html lang=" "></html>', expected: missing },
  { name: 'lang elsewhere does not count', input: '<html><body lang="en">x</body></html>', expected: missing },
  { name: 'no <html> element: missing', input: '<p lang="en">x</p>', expected: missing },
]);
