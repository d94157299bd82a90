// Every head-based check under the head rule of docs/checks.md §4.1 "Head": it reads only what a
// browser puts in the head, and when it fails because its tag stands after an element that closed
// the head early, `errors` adds `head_closed_by` after the main key. Each row also states what
// the engine saw close the head (null: it was not closed early), so a row without
// `head_closed_by` shows the check left it out, not that the close went unnoticed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildArtifacts } from '../../../src/analysis/artifacts/index.js';
import { makeSnapshot } from '../../../src/analysis/snapshot.js';
import type { CheckResult } from '../../../src/analysis/types.js';
import type { CheckName } from '../../../src/analysis/results.js';
import { assertResult, page, runCheck, type SnapshotInput } from './helpers.js';

interface Row {
  name: string;
  input: SnapshotInput | string;
  /** What the engine saw close the head early, or null. */
  closedBy: string | null;
  expected: CheckResult;
}

function table(check: CheckName, rows: Row[]): void {
  for (const row of rows) {
    test(`${check} under the head rule: ${row.name}`, () => {
      const snapshot = makeSnapshot(typeof row.input === 'string' ? { html: row.input } : row.input);
      assert.equal(buildArtifacts(snapshot.html, snapshot.finalUrl).head.closedBy, row.closedBy);
      assertResult(runCheck(check, row.input), row.expected);
    });
  }
}

const high = 'high' as const;
const medium = 'medium' as const;
const missing = (importance: 'high' | 'medium') => ({ passed: false, importance, value: null, errors: { missing: null } });
const closedBy = (importance: 'high' | 'medium', closer: string) => ({
  passed: false,
  importance,
  value: null,
  errors: { missing: null, head_closed_by: closer },
});

table('title', [
  {
    name: 'after an <iframe>: missing, head_closed_by <iframe>',
    input: page('<meta charset="utf-8"><iframe src="/ad"></iframe><title>Blue Widgets</title>'),
    closedBy: '<iframe>',
    expected: closedBy(high, '<iframe>'),
  },
  {
    name: 'after stray text: head_closed_by #text',
    input: page('<meta charset="utf-8">">\n<title>Blue Widgets</title>'),
    closedBy: '#text',
    expected: closedBy(high, '#text'),
  },
  {
    name: 'without <head> tags, after an <img>: head_closed_by <img>',
    input: '<meta charset="utf-8"><img src="/px.gif"><title>Blue Widgets</title><p>Body</p>',
    closedBy: '<img>',
    expected: closedBy(high, '<img>'),
  },
  {
    name: 'a title before the <iframe> passes; one after it is not a second title',
    input: page('<title>Blue Widgets</title><iframe></iframe><title>Other</title>'),
    closedBy: '<iframe>',
    expected: { passed: true, importance: high, value: 'Blue Widgets' },
  },
  {
    name: 'only a blank title after the <iframe>: missing, no head_closed_by',
    input: page('<iframe></iframe><title> </title>'),
    closedBy: '<iframe>',
    expected: missing(high),
  },
  {
    name: 'too_many is not caused by the early close: no head_closed_by',
    input: page('<title>A</title><title>B</title><iframe></iframe><title>C</title>'),
    closedBy: '<iframe>',
    expected: { passed: false, importance: high, value: 'A', errors: { too_many: null } },
  },
  {
    name: 'the head ended at <body>; a title in the body is missing, no head_closed_by',
    input: '<meta charset="utf-8"><body><iframe></iframe><title>Blue Widgets</title></body>',
    closedBy: null,
    expected: missing(high),
  },
]);

for (const [check, importance, name] of [
  ['meta_description', high, 'description'],
  ['meta_viewport', medium, 'viewport'],
] as const) {
  const tag = (content: string) => `<meta name="${name}" content="${content}">`;
  table(check, [
    {
      name: 'after an <iframe>: missing, head_closed_by <iframe>',
      input: page(`<meta charset="utf-8"><iframe src="/ad"></iframe>${tag('Widgets')}`),
      closedBy: '<iframe>',
      expected: closedBy(importance, '<iframe>'),
    },
    {
      name: 'after &nbsp; text: head_closed_by #text',
      input: page(`<title>T</title>&nbsp;${tag('Widgets')}`),
      closedBy: '#text',
      expected: closedBy(importance, '#text'),
    },
    {
      name: 'after a custom element: its lower-cased name',
      input: page(`<Cookie-Banner></Cookie-Banner>${tag('Widgets')}`),
      closedBy: '<cookie-banner>',
      expected: closedBy(importance, '<cookie-banner>'),
    },
    {
      name: 'the tag before the <iframe> counts; the one after it does not',
      input: page(`${tag('before')}<iframe></iframe>${tag('after')}`),
      closedBy: '<iframe>',
      expected: { passed: true, importance, value: 'before' },
    },
    {
      name: 'only a blank one after the <iframe>: missing, no head_closed_by',
      input: page(`<iframe></iframe>${tag(' ')}`),
      closedBy: '<iframe>',
      expected: missing(importance),
    },
    {
      name: 'the head ended at <body>; the tag in the body is missing, no head_closed_by',
      input: `<meta charset="utf-8"><body><iframe></iframe>${tag('Widgets')}</body>`,
      closedBy: null,
      expected: missing(importance),
    },
    {
      name: 'between </head> and <body> the tag is head content',
      input: `<html><head><title>T</title></head>${tag('Widgets')}<body><p>x</p></body></html>`,
      closedBy: null,
      expected: { passed: true, importance, value: 'Widgets' },
    },
  ]);
}

const noCharsetHeader = { 'content-type': ['text/html'] };
table('charset', [
  {
    name: '<meta charset> after an <iframe>: missing, head_closed_by <iframe>',
    input: { html: page('<iframe></iframe><meta charset="utf-8">'), headers: noCharsetHeader },
    closedBy: '<iframe>',
    expected: closedBy(medium, '<iframe>'),
  },
  {
    name: 'the http-equiv form after text: head_closed_by #text',
    input: { html: page('x<meta http-equiv="Content-Type" content="text/html; charset=utf-8">'), headers: noCharsetHeader },
    closedBy: '#text',
    expected: closedBy(medium, '#text'),
  },
  {
    name: 'a <meta charset> after the <iframe> does not outrank the http-equiv form before it',
    input: {
      html: page(
        '<meta http-equiv="Content-Type" content="text/html; charset=utf-8"><iframe></iframe><meta charset="windows-1252">',
      ),
      headers: noCharsetHeader,
    },
    closedBy: '<iframe>',
    expected: { passed: true, importance: medium, value: 'utf-8' },
  },
  {
    name: 'the HTTP header passes; the meta after the <iframe> does not count',
    input: page('<iframe></iframe><meta charset="shift_jis">'),
    closedBy: '<iframe>',
    expected: { passed: true, importance: medium, value: 'utf-8' },
  },
  {
    name: 'no declaration after the <iframe> either: missing, no head_closed_by',
    input: { html: page('<iframe></iframe><meta http-equiv="Content-Type" content="text/html">'), headers: noCharsetHeader },
    closedBy: '<iframe>',
    expected: missing(medium),
  },
  {
    name: 'the head ended at <body>: no head_closed_by',
    input: { html: '<title>T</title><body><iframe></iframe><meta charset="utf-8"></body>', headers: noCharsetHeader },
    closedBy: null,
    expected: missing(medium),
  },
]);

const noIco = { status: 404, contentType: 'text/html' };
table('favicon', [
  {
    name: 'icon link after an <iframe>, no /favicon.ico: missing, head_closed_by <iframe>',
    input: { html: page('<title>T</title><iframe></iframe><link rel="icon" href="/i.png">'), faviconProbe: noIco },
    closedBy: '<iframe>',
    expected: closedBy(medium, '<iframe>'),
  },
  {
    name: 'icon link after a <div>: head_closed_by <div>',
    input: { html: page('<div id="fb-root"></div><link rel="shortcut icon" href="/i.ico">'), faviconProbe: { error: 'timeout' } },
    closedBy: '<div>',
    expected: closedBy(medium, '<div>'),
  },
  {
    name: 'the icon link after the <iframe> is not declared: /favicon.ico answers instead',
    input: {
      html: page('<iframe></iframe><link rel="icon" href="/i.png">'),
      faviconProbe: { status: 200, contentType: 'image/x-icon' },
    },
    closedBy: '<iframe>',
    expected: { passed: true, importance: medium, value: 'http://example.test/favicon.ico' },
  },
  {
    name: 'only an apple-touch-icon after the <iframe>: missing, no head_closed_by',
    input: { html: page('<iframe></iframe><link rel="apple-touch-icon" href="/t.png">'), faviconProbe: noIco },
    closedBy: '<iframe>',
    expected: missing(medium),
  },
  {
    name: 'the head ended at <body>: no head_closed_by',
    input: { html: '<title>T</title><body><iframe></iframe><link rel="icon" href="/i.png"></body>', faviconProbe: noIco },
    closedBy: null,
    expected: missing(medium),
  },
]);

// noindex fails when it finds a directive; an early close can only hide one, never cause the failure.
table('noindex', [
  {
    name: 'a robots meta after an <iframe> is body content: passes',
    input: page('<title>T</title><iframe></iframe><meta name="robots" content="noindex">'),
    closedBy: '<iframe>',
    expected: { passed: true, importance: high, value: null },
  },
  {
    name: 'a robots meta before the <iframe> fails, without head_closed_by',
    input: page('<meta name="robots" content="noindex"><iframe></iframe><meta name="googlebot" content="none">'),
    closedBy: '<iframe>',
    expected: { passed: false, importance: high, value: 'noindex', errors: { missing: null } },
  },
  {
    name: 'the header still counts, without head_closed_by',
    input: { html: page('<iframe></iframe><meta name="robots" content="none">'), headers: { 'x-robots-tag': ['noindex'] } },
    closedBy: '<iframe>',
    expected: { passed: false, importance: high, value: 'noindex', errors: { missing: null } },
  },
]);
