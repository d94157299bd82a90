// How API routes are written (see validator.ts and rules.ts): input comes typed from the
// route's schemas, so no handler casts it; and a route that holds its schema's 422 back
// (attachValidation) always merges it with its own rules through withRules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROUTES = 'src/api/routes';
const sources = readdirSync(ROUTES)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: join(ROUTES, f), text: readFileSync(join(ROUTES, f), 'utf8') }));

test('route modules cast nothing (`as const` aside)', () => {
  const casts = sources.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, i) =>
        /\bas (?!const\b)[A-Za-z{([]/.test(line.replace(/\/\/.*$/, '')) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
      ),
  );
  assert.deepEqual(casts, []);
});

test('every route with attachValidation reads its body through withRules', () => {
  for (const { file, text } of sources) {
    const held = text.match(/attachValidation: true/g)?.length ?? 0;
    const merged = text.match(/withRules\(request,/g)?.length ?? 0;
    assert.equal(merged, held, file);
  }
});
