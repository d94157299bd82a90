import { page, table } from './helpers.js';

const medium = 'medium' as const;
const found = (value: string) => ({ passed: true, importance: medium, value });
const noCharsetHeader = { 'content-type': ['text/html'] };

table('charset', [
  {
    name: '<meta charset>, lower-cased',
    input: { html: page('<meta charset="UTF-8">'), headers: noCharsetHeader },
    expected: found('utf-8'),
  },
  {
    name: 'quoted and padded',
    input: { html: page(`<meta charset=" 'Windows-1252' ">`), headers: noCharsetHeader },
    expected: found('windows-1252'),
  },
  {
    name: 'the http-equiv form',
    input: { html: page('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'), headers: noCharsetHeader },
    expected: found('iso-8859-1'),
  },
  {
    name: '<meta charset> comes before http-equiv, whatever the order in the page',
    input: {
      html: page('<meta http-equiv="content-type" content="text/html; charset=gb2312"><meta charset="gbk">'),
      headers: noCharsetHeader,
    },
    expected: found('gbk'),
  },
  {
    name: 'the HTTP header when the page declares none',
    input: { html: page(''), headers: { 'content-type': ['text/html; Charset="Shift_JIS"'] } },
    expected: found('shift_jis'),
  },
  {
    name: 'a meta declaration beats a contradicting header (the declared label is reported)',
    input: {
      html: page('<meta charset="utf-8">'),
      headers: { 'content-type': ['text/html; charset=iso-8859-1'] },
      charsetUsed: 'windows-1252',
    },
    expected: found('utf-8'),
  },
  {
    name: 'none: missing',
    input: { html: page(''), headers: noCharsetHeader },
    expected: { passed: false, importance: medium, value: null, errors: { missing: null } },
  },
  {
    name: 'a blank <meta charset> is no declaration',
    input: { html: page('<meta charset=" ">'), headers: noCharsetHeader },
    expected: { passed: false, importance: medium, value: null, errors: { missing: null } },
  },
  {
    name: 'a <meta charset> in the body (with a head) does not count',
    input: { html: page('', '<meta charset="utf-8">'), headers: noCharsetHeader },
    expected: { passed: false, importance: medium, value: null, errors: { missing: null } },
  },
  {
    name: 'decoded by a UTF-16 BOM but declared nowhere: missing',
    input: { html: page('<title>t</title>'), headers: {}, charsetUsed: 'utf-16le' },
    expected: { passed: false, importance: medium, value: null, errors: { missing: null } },
  },
]);
