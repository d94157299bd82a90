// Where benchmarks find the repository, the shared corpus and their results folder, whether
// they run from source (tsx) or compiled by scripts/bench.mjs into .bench/ (plain node).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = process.env.RANKSCOPE_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
export const SHARED = join(ROOT, '..', 'shared');
export const RESULTS = join(ROOT, 'bench', 'results');
