// `npm run bench -- <name> [args…]`: compiles src/ and bench/ to .bench/ and runs the benchmark
// with plain node, so its timings and memory are those of compiled code (no tsx loader).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeRegistry } from './check-registry.mjs';

const [name, ...args] = process.argv.slice(2);
if (!name || !existsSync(join('bench', `${name}.ts`))) {
  console.error(
    'usage: npm run bench -- <analyze|agreement|api|lists|load|lighthouse|abuse|analytics|jobs|crawl|render|dashboard|latency> [args…]',
  );
  process.exit(2);
}
writeRegistry(); // the check registry, generated from the check modules
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const run = spawnSync(process.execPath, [join('.bench', 'bench', `${name}.js`), ...args], {
  stdio: 'inherit',
  env: { ...process.env, RANKSCOPE_ROOT: process.cwd() },
});
process.exit(run.status ?? 1);
