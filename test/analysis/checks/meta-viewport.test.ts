import { page, table } from './helpers.js';

const medium = 'medium' as const;
const missing = { passed: false, importance: medium, value: null, errors: { missing: null } };

table('meta_viewport', [
  {
    name: 'present passes, collapsed',
    input: page('<meta name="viewport" content=" width=device-width,\n initial-scale=1 ">'),
    expected: { passed: true, importance: medium, value: 'width=device-width, initial-scale=1' },
  },
  { name: 'absent: missing', input: page(''), expected: missing },
  { name: 'blank: missing', input: page('<meta name="viewport" content="">'), expected: missing },
  {
    name: 'in the body (with a head): missing',
    input: page('', '<meta name="viewport" content="width=device-width">'),
    expected: missing,
  },
]);
