import { page, table, withLimits } from './helpers.js';

const low = 'low' as const;

table('deprecated_html_tags', [
  { name: 'none pass', input: page('', '<p>ok</p>'), expected: { passed: true, importance: low, value: null } },
  {
    name: 'a single deprecated tag fails',
    input: page('', '<center>x</center>'),
    expected: { passed: false, importance: low, value: null, errors: { bad_tags: { center: 1 } } },
  },
  {
    name: 'counts per tag, in configured-list order',
    input: page(
      '',
      '<font>a</font><u>b</u><font>c</font><center>d</center><FONT>e</FONT><marquee>m</marquee><blink>b</blink><s>s</s>',
    ),
    expected: {
      passed: false,
      importance: low,
      value: null,
      errors: { bad_tags: { blink: 1, center: 1, font: 3, marquee: 1, s: 1, u: 1 } },
    },
  },
  {
    name: 'the configured list',
    input: page('', '<center>x</center><b>y</b>'),
    config: withLimits({ deprecatedTags: ['b'] }),
    expected: { passed: false, importance: low, value: null, errors: { bad_tags: { b: 1 } } },
  },
]);
