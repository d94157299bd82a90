// `npm test`: every test/**/*.test.ts through node:test + tsx. Node 20 expands no `**` globs
// and runs nothing when given no files, so the list is built here.
// Usage: node scripts/test.mjs [substring …]  (runs only the files whose path contains one)
// TEST_CONCURRENCY sets how many test files run at once (default: the machine's cores).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeRegistry } from './check-registry.mjs';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

// The check registry is generated from the check modules (scripts/check-registry.mjs).
writeRegistry();

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Spawned servers and CLIs run bin/rankscope.mjs, i.e. the bundle in dist/bundle/, as users do: a
 * process from source through tsx takes seconds more to start. Built here once, before the files
 * start (bin/ would otherwise build it inside the first test that spawns, while others wait).
 */
function buildOnce() {
  const compiled = 'dist/cli/index.js';
  const bundle = 'dist/bundle/index.js';
  const stale =
    !existsSync(compiled) ||
    !existsSync(bundle) ||
    newestMtime('src') > statSync(compiled).mtimeMs ||
    statSync(compiled).mtimeMs > statSync(bundle).mtimeMs;
  if (!stale) return;
  console.error('test: building dist/ and dist/bundle/ for the spawned processes…');
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  // A type error still emits: the tests run what was emitted, as they would run the source.
  if (tsc.status !== 0) console.error('test: tsc reported errors (above); the spawned processes run what it emitted');
  const bundled = spawnSync(process.execPath, ['scripts/bundle-cli.mjs'], { stdio: 'inherit' });
  if (bundled.status !== 0) process.exit(bundled.status ?? 1);
}

const filters = process.argv.slice(2);
const files = walk('test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
buildOnce();
const concurrency = process.env.TEST_CONCURRENCY ?? String(availableParallelism());
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
