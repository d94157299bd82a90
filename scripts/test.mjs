// `npm test`: every test/**/*.test.ts through node:test. Node 20 expands no `**` globs and runs
// nothing when given no files, so the list is built here. The files run compiled: src/ and test/
// are transpiled file by file (esbuild, about a second) into .test-build/, which saves every test
// process tsx's loader (0.2–1 s of CPU per file, a third of the suite). Tests that read the
// source tree do so from the repo root (their working directory), not beside their own module.
// Usage: node scripts/test.mjs [substring …]  (runs only the files whose path contains one)
// TEST_CONCURRENCY sets how many test files run at once (default: twice the machine's cores).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { writeRegistry } from './check-registry.mjs';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
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

/**
 * src/ and test/ transpiled one file each (no bundling: the module graph stays the source's) into
 * .test-build/, with inline source maps so a failure points at the TypeScript line. Every other
 * file (fixtures, JSON, the hanging-worker fixture run through tsx) and docs/ and package.json are
 * linked, so paths relative to a module resolve as in the source tree.
 */
const BUILD = '.test-build';
async function compileTests() {
  rmSync(BUILD, { recursive: true, force: true });
  const all = [...walk('src'), ...walk('test')];
  const typescript = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: typescript,
    outdir: BUILD,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  for (const file of [...all.filter((f) => !f.endsWith('.ts')), 'docs', 'package.json']) {
    const link = join(BUILD, file);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(resolve(file), link);
  }
}

const filters = process.argv.slice(2);
const files = walk('test')
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
buildOnce();
await compileTests();
// Twice the cores: about half of a file's time is spent waiting (on Chromium, spawned servers,
// timers a test drives), and a second file per core fills it (on 2 cores: 3:50 → 3:32, same load).
const concurrency = process.env.TEST_CONCURRENCY ?? String(availableParallelism() * 2);

function runFiles(list) {
  if (list.length === 0) return 0;
  const result = spawnSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${concurrency}`,
      ...list.map((f) => join(BUILD, f.replace(/\.ts$/, '.js'))),
    ],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
  return result.status ?? 1;
}

// The browser files run after the others, among themselves. Mixed in, their Chromiums competed
// with every other file for the cores: the suite spent 385 s of CPU in 3:10 on 2 cores, and
// timing-bound browser steps (a render within its timeout, Swagger UI's 1.5 MB script) failed
// on a loaded machine. Apart: 300 s of CPU in 2:36 (102 s, then 53 s for the browser files).
const isBrowser = (f) => f.startsWith('test/browser/');
const others = runFiles(files.filter((f) => !isBrowser(f)));
const browsers = runFiles(files.filter(isBrowser));
process.exit(others || browsers);
