#!/usr/bin/env node
// Entry point for `npm start` and `npx rankscope`: runs the compiled CLI, compiling first only
// when dist/ is missing or older than src/ (so production starts without a transpiler).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'cli', 'index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const srcDir = join(root, 'src');
const stale = !existsSync(entry) || (existsSync(srcDir) && newestMtime(srcDir) > statSync(entry).mtimeMs);
if (stale) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  process.stderr.write('rankscope: compiling TypeScript (dist/ is missing or stale)…\n');
  const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
