import { page, table } from './helpers.js';

const high = 'high' as const;
const missing = { passed: false, importance: high, value: null, errors: { missing: null } };

table('meta_description', [
  {
    name: 'present passes, no length rule',
    input: page('<meta name="description" content="A page about widgets, and much more than sixty characters of it.">'),
    expected: { passed: true, importance: high, value: 'A page about widgets, and much more than sixty characters of it.' },
  },
  { name: 'absent: missing', input: page('<title>t</title>'), expected: missing },
  { name: 'blank content: missing', input: page('<meta name="description" content=" \n ">'), expected: missing },
  { name: 'no content attribute: missing', input: page('<meta name="description">'), expected: missing },
  {
    name: 'the last non-blank one counts',
    input: page(
      '<meta name="description" content="first"><meta name="description" content="second"><meta name="description" content="  ">',
    ),
    expected: { passed: true, importance: high, value: 'second' },
  },
  {
    name: 'content is collapsed, entities decoded',
    input: page('<meta name="description" content="  Fish &amp;\n  chips ">'),
    expected: { passed: true, importance: high, value: 'Fish & chips' },
  },
  {
    name: 'the name is trimmed and compared case-insensitively',
    input: page('<meta name=" Description " content="ok">'),
    expected: { passed: true, importance: high, value: 'ok' },
  },
  {
    name: 'in the body (with a head): not looked at',
    input: page('', '<meta name="description" content="late">'),
    expected: missing,
  },
]);
