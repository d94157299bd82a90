// docs/audit-issues.md describes every issue type of the registry, with its severity, and no
// other: the registry and the documentation cannot drift apart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ISSUE_CATALOGUE, ISSUE_TYPES } from '../../src/crawl/issues/catalogue.js';

const doc = readFileSync(new URL('../../docs/audit-issues.md', import.meta.url), 'utf8');

test('every registry type has its section in docs/audit-issues.md, with its severity, rule, why and fix', () => {
  for (const type of ISSUE_TYPES) {
    const { severity } = ISSUE_CATALOGUE[type];
    const heading = `### ${type} (${severity})`;
    const at = doc.indexOf(`${heading}\n`);
    assert.ok(at !== -1, `no "${heading}" section`);
    const section = doc.slice(at, doc.indexOf('\n### ', at + 1) === -1 ? undefined : doc.indexOf('\n### ', at + 1));
    for (const part of ['**Raised when:**', '**Why it matters:**', '**How to fix:**'])
      assert.ok(section.includes(part), `${type}: ${part}`);
  }
});

test('docs/audit-issues.md documents no type the registry lacks', () => {
  const documented = [...doc.matchAll(/^### (\S+) \(/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...ISSUE_TYPES].sort());
});
