// The map stays true: no module imports itself back through others, and the engine
// (src/analysis) knows nothing of HTTP servers, databases or pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve('src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative imports of a module (static, type-only and dynamic alike), as source paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return found.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
}

const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
const name = (f: string) => relative(SRC, f);

test('no import cycles in src/', () => {
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('every relative import resolves to a module in src/', () => {
  const missing = [...graph].flatMap(([file, imports]) =>
    imports.filter((i) => !graph.has(i)).map((i) => `${name(file)} → ${name(i)}`),
  );
  assert.deepEqual(missing, []);
});

test('the engine imports nothing of the API, the database, the pages or the CLI', () => {
  const outside = ['api/', 'db/', 'web/', 'cli/'];
  const leaks = [...graph]
    .filter(([file]) => name(file).startsWith('analysis/'))
    .flatMap(([file, imports]) =>
      imports.filter((i) => outside.some((o) => name(i).startsWith(o))).map((i) => `${name(file)} → ${name(i)}`),
    );
  assert.deepEqual(leaks, []);
});
