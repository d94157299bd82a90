import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findOne } from 'domutils';
import { renderNotFoundPage, renderPasswordPage, renderTooManyAttemptsPage } from '../../src/render/index.js';
import { all, assertPageBasics, byId, one, text } from './render-helpers.js';

test('the password page has a form posting field "password" back to the same path, with a label', () => {
  const doc = assertPageBasics(renderPasswordPage({ kind: 'report', id: 42 }), { noindex: true });
  const form = one(doc, 'form')!;
  assert.equal(form.attribs.method, 'post');
  assert.equal(form.attribs.action, undefined, 'no action: the form posts to the page itself');
  const input = findOne((e) => e.name === 'input' && e.attribs.name === 'password', [form])!;
  assert.equal(input.attribs.type, 'password');
  assert.equal(input.attribs.autocomplete, 'current-password');
  assert.equal(input.attribs['aria-invalid'], undefined);
  const label = one(form, 'label')!;
  assert.equal(label.attribs.for, input.attribs.id);
  assert.equal(text(label), 'Password');
  assert.equal(text(findOne((e) => e.name === 'button', [form])!), 'View report');
  assert.equal(byId(doc, 'password-error'), null);
  assert.doesNotMatch(text(doc), /Incorrect password/);
});

test('the password page shows the error, tied to the field', () => {
  const doc = assertPageBasics(renderPasswordPage({ kind: 'website', id: 7, error: 'Incorrect password.' }), { noindex: true });
  const error = byId(doc, 'password-error')!;
  assert.equal(text(error), 'Incorrect password.');
  assert.equal(error.attribs.role, 'alert');
  const input = findOne((e) => e.name === 'input', [doc])!;
  assert.equal(input.attribs['aria-invalid'], 'true');
  assert.equal(input.attribs['aria-describedby'], 'password-error');
  assert.match(text(doc), /This website is protected/);
  assert.equal(text(findOne((e) => e.name === 'button', [doc])!), 'View website');
});

test('the password page escapes the error message', () => {
  const page = renderPasswordPage({ kind: 'report', id: 1, error: '<script>alert(1)</script>' });
  assertPageBasics(page, { noindex: true });
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'escaped');
});

test('the not-found page is generic and not indexed', () => {
  const doc = assertPageBasics(renderNotFoundPage(), { noindex: true });
  assert.equal(text(one(doc, 'h1')!), 'Page not found');
  assert.equal(all(doc, 'form').length, 0);
});

test('the too-many-attempts page says when to try again', () => {
  let doc = assertPageBasics(renderTooManyAttemptsPage(90), { noindex: true });
  assert.equal(text(one(doc, 'h1')!), 'Too many attempts');
  assert.match(text(doc), /Try again in 2 minutes\./);
  doc = assertPageBasics(renderTooManyAttemptsPage(45), { noindex: true });
  assert.match(text(doc), /Try again in 45 seconds\./);
});
