// Starting a worker thread from a module beside the caller's: compiled code runs the worker's
// .js file; from source (tests, tsx) a bootstrap registers the TypeScript loader in the new
// thread first, since a worker does not inherit the parent's loader hooks.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The worker module `name` (no extension) next to the module at `callerUrl` (its
 * import.meta.url), started with `options`.
 */
export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const fromSource = callerUrl.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, callerUrl);
  if (!fromSource) return new Worker(url, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
