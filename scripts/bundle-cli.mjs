// Bundles the compiled CLI (dist/cli/index.js) and its worker threads into dist/bundle/, so a
// command starts by reading a few files instead of some 640 (Kysely, TypeBox and undici ship
// hundreds of small modules): `rankscope crawl` on a one-page site starts in half the time
// (README, Benchmarks). bin/rankscope.mjs runs the bundle; dist/ stays the library and the fallback.
// Packages with native code, their own files on disk or optional requires stay external.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    index: 'dist/cli/index.js',
    // startModuleWorker() starts these beside the module that asks for them, here dist/bundle/.
    'engine-worker': 'dist/analysis/engine-worker.js',
    'analytics-write-worker': 'dist/db/analytics-write-worker.js',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
  external: [
    'better-sqlite3',
    '@node-rs/argon2',
    'pg',
    'pg-native',
    'pg-boss',
    'fastify',
    '@fastify/*',
    'ioredis',
    'nodemailer',
    'maxmind',
    '@ip-location-db/*',
    'tsx',
    'tsx/*',
    // Reads its own files from disk (__dirname); loaded only when a page is rendered.
    'playwright-core',
  ],
  // Bundled CommonJS packages call require() for Node's built-ins; an ES module has none.
  banner: {
    js: "import { createRequire as __rankscopeRequire } from 'node:module'; const require = __rankscopeRequire(import.meta.url);",
  },
});
