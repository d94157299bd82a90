// The map stays true: no module imports itself back through others, every import follows the
// layer table (test/helpers/layers.ts: the API may import features, never the reverse), and the
// engine (src/analysis) knows nothing of HTTP servers, databases or pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { LAYERS, layerViolations } from '../helpers/layers.js';

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

test('every import follows the layer table: features never import the API, the pages or the app', () => {
  const byName = new Map([...graph].map(([file, imports]) => [name(file), imports.filter((i) => graph.has(i)).map(name)]));
  assert.deepEqual(layerViolations(byName), []);
});

test('the layer check reports an upward import, an unknown folder, and lets the allowed ones pass', () => {
  const graph = new Map<string, string[]>([
    ['tracking/event-route.ts', ['api/errors.ts', 'http/errors.ts', 'tracking/collector.ts', 'time.ts']],
    ['db/analytics-repository.ts', ['tracking/rollup.ts', 'model/rollup.ts']],
    ['api/routes/reports.ts', ['reports/report-service.ts', 'resources/report.ts']],
    ['newfolder/x.ts', ['db/schema.ts']],
  ]);
  assert.deepEqual(layerViolations(graph), [
    'tracking/event-route.ts → api/errors.ts (tracking may not import api)',
    'db/analytics-repository.ts → tracking/rollup.ts (db may not import tracking)',
    'newfolder/x.ts: the folder "newfolder" has no row in the layer table',
  ]);
  // and the table itself points one way: no two folders may import each other
  const both = Object.entries(LAYERS).flatMap(([a, allowed]) =>
    allowed.filter((b) => (LAYERS[b] ?? []).includes(a)).map((b) => `${a} ⇄ ${b}`),
  );
  assert.deepEqual(both, []);
});
