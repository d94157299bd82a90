import { table } from './helpers.js';

const low = 'low' as const;
const tooSmall = { too_small: { min: '10' } };

table('text_html_ratio', [
  // "abcd" (4) of "<p>abcd</p>" (11): 36.36… → 36
  { name: 'rounded to an integer percentage', input: '<p>abcd</p>', expected: { passed: true, importance: low, value: 36 } },
  // "a" (1) of "<p>a</p>" (8): 12.5 → 13
  { name: 'halves round up', input: '<p>a</p>', expected: { passed: true, importance: low, value: 13 } },
  // "a" (1) of "<p>a</p><script>12345678901</script>" (36): 2.78 → 3
  {
    name: 'script text is not visible text',
    input: '<p>a</p><script>12345678901</script>',
    expected: { passed: false, importance: low, value: 3, errors: tooSmall },
  },
  // "😀" (1 code point) of "<p>😀</p>" (8 code points): 12.5 → 13
  { name: 'code points, not UTF-16 units', input: '<p>😀</p>', expected: { passed: true, importance: low, value: 13 } },
  // "a b" (3) of "<p>a</p>\n\n\n<p>b</p>" (19): 15.8 → 16
  { name: 'visible text is collapsed', input: '<p>a</p>\n\n\n<p>b</p>', expected: { passed: true, importance: low, value: 16 } },
  { name: 'an empty document is 0', input: '', expected: { passed: false, importance: low, value: 0, errors: tooSmall } },
]);
