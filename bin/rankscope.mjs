#!/usr/bin/env node
// Entry point for `npm start` and `npx rankscope`: runs the compiled CLI, compiling first only
// when dist/ is missing or older than src/ (so production starts without a transpiler). It runs
// the bundle of the CLI (dist/bundle/, scripts/bundle-cli.mjs), which starts in about half the
// time of dist/'s hundreds of modules, and dist/cli/ itself when the bundle cannot be built.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'cli', 'index.js');
const bundled = join(root, 'dist', 'bundle', 'index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const srcDir = join(root, 'src');
const isStale = () => !existsSync(entry) || (existsSync(srcDir) && newestMtime(srcDir) > statSync(entry).mtimeMs);
const bundleIsStale = () => !existsSync(bundled) || statSync(entry).mtimeMs > statSync(bundled).mtimeMs;
const hasBundler = () => existsSync(join(root, 'node_modules', 'esbuild'));

/** Several processes may start at once (tests, a process manager): one compiles, the others wait for it. */
function compileOnce() {
  const lock = join(root, 'dist.build-lock');
  const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // a lock left by a compiler that died is taken over after two minutes
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 120_000)
        rmSync(lock, { recursive: true, force: true });
      pause(100);
    }
  }
  let status = 0;
  try {
    // the check registry is generated from the check modules (written only when it changes)
    const registry = join(root, 'scripts', 'check-registry.mjs');
    if (existsSync(registry)) status = spawnSync(process.execPath, [registry], { stdio: 'inherit' }).status ?? 1;
    if (status === 0 && isStale()) {
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      process.stderr.write('rankscope: compiling TypeScript (dist/ is missing or stale)…\n');
      status = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' }).status ?? 1;
    }
    if (status === 0 && bundleIsStale() && hasBundler()) {
      const bundler = join(root, 'scripts', 'bundle-cli.mjs');
      // a failed bundle is not fatal: dist/cli/ runs instead
      spawnSync(process.execPath, [bundler], { stdio: 'inherit' });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (status !== 0) process.exit(status);
}

if (isStale() || (bundleIsStale() && hasBundler())) compileOnce();

const { main } = await import(pathToFileURL(bundleIsStale() ? entry : bundled).href);
process.exitCode = await main(process.argv.slice(2));
