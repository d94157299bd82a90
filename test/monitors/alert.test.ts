// The alert decision (compareRuns) and the alert mail (alertMail), as pure functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../src/monitors/alert.js';
import { alertMail, type AlertMailInput } from '../../src/monitors/alert-mail.js';
import { summariseResults } from '../../src/db/report-history-repository.js';

const check = (passed: boolean, importance: string) => ({ passed, importance, value: null });

test('changes: every check whose verdict differs from the run before, in the report order', () => {
  const c = compareRuns(
    { result: 80, passedChecks: new Set(['title', 'language', 'social']) },
    {
      result: 80,
      results: {
        title: check(true, 'high'),
        meta_description: check(true, 'high'),
        language: check(false, 'medium'),
        social: check(true, 'low'),
      },
    },
    5,
  );
  assert.deepEqual(c.changes, [
    { id: 'meta_description', importance: 'high', passed_before: false, passed: true },
    { id: 'language', importance: 'medium', passed_before: true, passed: false },
  ]);
  assert.equal(c.alert, false, 'no drop, and no high check failing');
});

test('a drop of exactly alert_drop alerts; one point less does not', () => {
  const results = { title: check(true, 'high') };
  const prev = { result: 90, passedChecks: new Set(['title']) };
  assert.equal(compareRuns(prev, { result: 85, results }, 5).alert, true);
  assert.equal(compareRuns(prev, { result: 85, results }, 5).scoreDropped, true);
  assert.equal(compareRuns(prev, { result: 86, results }, 5).alert, false);
  assert.equal(compareRuns(prev, { result: 95, results }, 1).alert, false, 'a rise never alerts');
  assert.equal(compareRuns(prev, { result: 0, results }, 100).alert, false, '90 points is less than 100');
});

test('a high-importance check going from passed to failed alerts whatever the score; medium and low do not', () => {
  const prev = { result: 70, passedChecks: new Set(['title', 'language']) };
  const high = compareRuns(prev, { result: 70, results: { title: check(false, 'high'), language: check(true, 'medium') } }, 100);
  assert.equal(high.alert, true);
  assert.deepEqual(high.highRegressions, ['title']);
  const medium = compareRuns(
    prev,
    { result: 70, results: { title: check(true, 'high'), language: check(false, 'medium') } },
    100,
  );
  assert.equal(medium.alert, false);
  // importance comes from the stored check object
  const promoted = compareRuns(
    prev,
    { result: 70, results: { title: check(true, 'high'), language: check(false, 'high') } },
    100,
  );
  assert.deepEqual(promoted.highRegressions, ['language']);
  // a high check that was failing and still fails is no change
  const still = compareRuns(
    { result: 70, passedChecks: new Set<string>() },
    { result: 70, results: { title: check(false, 'high') } },
    100,
  );
  assert.deepEqual([still.changes, still.alert], [[], false]);
});

test('history summaries count any stored JSON the way the share page does', () => {
  assert.deepEqual(summariseResults(JSON.stringify({ title: check(true, 'high'), headings: check(false, 'high'), odd: 3 })), {
    passed: 1,
    failed: 2,
    passedChecks: ['title'],
  });
  assert.deepEqual(summariseResults('not json'), { passed: 0, failed: 0, passedChecks: [] });
  assert.deepEqual(summariseResults('[1,2]'), { passed: 0, failed: 0, passedChecks: [] });
  // names that are not check names are counted, never listed (the list is comma-separated)
  assert.deepEqual(summariseResults(JSON.stringify({ 'a,b': check(true, 'low') })), { passed: 1, failed: 0, passedChecks: [] });
});

const input = (over: Partial<AlertMailInput> = {}): AlertMailInput => ({
  to: 'owner@example.com',
  appUrl: 'https://rank.example',
  report: { id: 42, url: 'https://shop.example/<script>alert(1)</script>?a=1&b=2', privacy: 0 },
  monitor: { id: 7, frequency: 'weekly', alert_drop: 5 },
  comparison: {
    before: 92,
    after: 80,
    changes: [
      { id: 'language', importance: 'medium', passed_before: false, passed: true },
      { id: 'title', importance: 'high', passed_before: true, passed: false },
    ],
    scoreDropped: true,
    highRegressions: ['title'],
  },
  previousGeneratedAt: '2026-03-02T09:00:00.000000Z',
  generatedAt: '2026-03-09T09:00:00.000000Z',
  ...over,
});

test('the alert mail: both parts name the page, the scores, each changed check (id, title, before/now, how to fix) and the share page', () => {
  const mail = alertMail(input());
  assert.equal(mail.to, 'owner@example.com');
  assert.match(mail.subject, /^Rankscope alert: /);
  assert.match(mail.subject, /score 92 → 80/);
  assert.match(mail.subject, /Title tag now fails/);
  assert.doesNotMatch(mail.subject, /[\r\n]/);
  for (const part of [mail.text, mail.html]) {
    assert.ok(part.includes('92 → 80'), 'the score before and after');
    assert.ok(part.includes('https://rank.example/reports/42'), 'the share page link');
    assert.ok(part.includes('title') && part.includes('Title tag'), 'the check id and title');
    assert.ok(part.includes('language'), 'an improved check is named too');
    assert.ok(
      part.includes('Give the page exactly one &lt;title&gt;') || part.includes('Give the page exactly one <title>'),
      'how to fix',
    );
    assert.ok(part.includes('Monitor #7'));
  }
  // newly failing first, with how to fix; the improved one without
  assert.ok(mail.text.indexOf('- title:') < mail.text.indexOf('- language:'));
  assert.match(mail.text, /- title: Title tag \(high importance\)\n {2}Before: passed\. Now: failed\.\n {2}How to fix: /);
  assert.match(mail.text, /- language: Language \(medium importance\)\n {2}Before: failed\. Now: passed\.(?!\n {2}How to fix)/);
  assert.match(
    mail.text,
    /the score fell by 12 points \(this monitor alerts at a fall of 5 or more\), and a high-importance check went from passed to failed/,
  );
});

test('the alert mail HTML: everything escaped, inline styles only, no images, no scripts, no remote resources', () => {
  const mail = alertMail(input());
  assert.ok(!mail.html.includes('<script>'), 'the URL is escaped');
  assert.ok(mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;?a=1&amp;b=2'));
  assert.doesNotMatch(mail.html, /<img|<link|<style|<script|@import|url\(/i);
  assert.match(mail.html, /^<!doctype html>\n<html lang="en">/);
  const links = [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(links, ['https://rank.example/reports/42']);
  // the text part carries the URL as it is
  assert.ok(mail.text.includes('https://shop.example/<script>alert(1)</script>?a=1&b=2'));
});

test('the alert mail of a private report says its share page is closed; a page URL cannot break the subject', () => {
  const mail = alertMail(input({ report: { id: 3, url: 'https://x.example/\r\nBcc: evil@example.com', privacy: 1 } }));
  assert.doesNotMatch(mail.subject, /[\r\n]/);
  assert.match(mail.text, /The report is private/);
  assert.match(mail.html, /The report is private/);
  const shown = alertMail(input());
  assert.doesNotMatch(shown.text, /The report is private/);
});
