// A worker thread of the engine pool (engine-pool.ts): parses pages and runs their checks on
// request, keeping each parsed page until its checks run or it is dropped. After each job it
// reports the size of its heap, so the pool can replace a worker that a big page left bloated.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { buildArtifacts, type Artifacts } from './artifacts/index.js';
import { pageOutline } from './outline.js';
import { declaredIconUrl } from './probes.js';
import { runChecks } from './run.js';
import type { EngineReply, EngineRequest } from './engine-pool.js';

/** Parsed pages waiting for their checks: the html stays with them, for the snapshot. */
const parsed = new Map<number, { html: string; artifacts: Artifacts }>();

function answer(reply: EngineReply): void {
  parentPort!.postMessage({ ...reply, heapBytes: getHeapStatistics().total_heap_size });
}

parentPort!.on('message', (request: EngineRequest) => {
  try {
    switch (request.op) {
      case 'parse': {
        const artifacts = buildArtifacts(request.html, request.finalUrl);
        parsed.set(request.id, { html: request.html, artifacts });
        const outline = request.withOutline ? pageOutline(artifacts) : null;
        answer({ id: request.id, declaredIcon: declaredIconUrl(artifacts), outline });
        break;
      }
      case 'check': {
        const page = parsed.get(request.id);
        parsed.delete(request.id);
        if (!page) throw new Error('unknown page');
        answer({ id: request.id, result: runChecks({ ...request.snapshot, html: page.html }, request.config, page.artifacts) });
        break;
      }
      case 'drop':
        parsed.delete(request.id);
        break;
    }
  } catch (error) {
    answer({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
