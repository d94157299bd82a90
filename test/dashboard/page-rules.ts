// What every dashboard page must satisfy (docs/dashboard.md, and what Lighthouse's
// accessibility audit checks): lang, a specific title, exactly one h1, heading levels that do
// not skip going down, a label for every form control, unique ids, the landmarks, links with
// text, and the CSP's rules (no inline script or style; the one script from this origin).
import assert from 'node:assert/strict';
import { findAll } from 'domutils';
import type { Element } from 'domhandler';
import { all, elements, one, parse, text } from '../web/render-helpers.js';

export function assertDashboardPage(html: string, where: string): void {
  assert.match(html, /^<!doctype html>\n<html lang="en">/, `${where}: doctype and lang`);
  const doc = parse(html);
  // The document's title (an SVG chart's <title>s name its parts).
  const title = all(one(doc, 'head')!, 'title');
  assert.equal(title.length, 1, `${where}: one title`);
  assert.match(text(title[0]), /^\S.* · Rankscope$/, `${where}: a specific title`);
  assert.equal(all(doc, 'h1').length, 1, `${where}: exactly one h1`);
  assert.ok(text(one(doc, 'h1')!).trim().length > 0, `${where}: the h1 says something`);
  const levels = findAll((e) => /^h[1-6]$/.test(e.name), [doc]).map((e) => Number(e.name[1]));
  levels.reduce((prev, level) => {
    assert.ok(level <= prev + 1, `${where}: heading h${level} after h${prev}`);
    return level;
  }, 0);
  assert.equal(all(doc, 'main').length, 1, `${where}: one main`);

  const els = elements(doc);
  const byId = new Map(els.filter((e) => e.attribs.id).map((e) => [e.attribs.id, e]));
  const ids = els.map((e) => e.attribs.id).filter((id) => id !== undefined);
  assert.equal(
    new Set(ids).size,
    ids.length,
    `${where}: ids are unique (${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')})`,
  );
  const labels = all(doc, 'label');
  const labelled = new Set(labels.map((l) => l.attribs.for).filter(Boolean));
  const insideLabel = (e: Element) => {
    for (let p = e.parent as Element | null; p; p = p.parent as Element | null) if (p.name === 'label') return true;
    return false;
  };
  for (const control of els.filter((e) => ['input', 'select', 'textarea'].includes(e.name))) {
    if (control.name === 'input' && ['hidden', 'submit', 'button'].includes(control.attribs.type ?? 'text')) continue;
    const name = `<${control.name} name="${control.attribs.name ?? ''}">`;
    assert.ok(
      (control.attribs.id && labelled.has(control.attribs.id)) ||
        insideLabel(control) ||
        control.attribs['aria-label'] ||
        control.attribs['aria-labelledby'],
      `${where}: ${name} has a label`,
    );
    for (const ref of (control.attribs['aria-describedby'] ?? '').split(/\s+/).filter(Boolean)) {
      assert.ok(byId.has(ref), `${where}: ${name} is described by #${ref}, which exists`);
    }
  }
  for (const label of labels)
    if (label.attribs.for) assert.ok(byId.has(label.attribs.for), `${where}: label for #${label.attribs.for} exists`);
  for (const button of all(doc, 'button'))
    assert.ok(text(button).trim().length > 0 || button.attribs['aria-label'], `${where}: buttons have text`);
  for (const a of all(doc, 'a'))
    assert.ok(text(a).trim().length > 0 || a.attribs['aria-label'], `${where}: links have text (${a.attribs.href})`);
  for (const table of all(doc, 'table')) {
    assert.ok(all(table, 'th').length > 0, `${where}: tables have header cells`);
  }

  assert.doesNotMatch(html, /\sstyle\s*=/i, `${where}: no inline style`);
  for (const script of all(doc, 'script')) {
    assert.equal(script.attribs.src, '/assets/app.js', `${where}: only the dashboard's own script`);
    assert.equal(text(script), '', `${where}: no inline script`);
  }
  for (const e of els)
    for (const name of Object.keys(e.attribs)) assert.ok(!name.startsWith('on'), `${where}: ${name} on <${e.name}>`);
}
