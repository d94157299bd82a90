// The layers of src/, as a table of the folders each folder may import, and the check that
// holds the code to it (test/unit/architecture.test.ts). A folder is the first path segment
// under src/ (`api`, `tracking`, …); a module at the top of src/ is its own (`app`, `config`, …).
// Dependencies point down: the API and the pages may import features; features import the
// shared layers (http, resources, render, db, model), never `api/`, the pages or the app.

/** Modules every folder may import: the clock, ids, the worker start, the settings. */
export const BASE = ['time', 'ids', 'worker-thread', 'config'] as const;

const FEATURES = [
  'accounts',
  'sharing',
  'websites',
  'jobs',
  'mail',
  'reports',
  'webhooks',
  'monitors',
  'crawl',
  'tracking',
  'digests',
] as const;
const SHARED = ['model', 'limits', 'analysis', 'index', 'browser', 'db', 'http', 'resources', 'render'] as const;

/** Folder → the folders it may import (besides BASE and itself). */
export const LAYERS: Record<string, readonly string[]> = {
  time: [],
  ids: [],
  'worker-thread': [],
  // pure values and rules of the domain: privacy, schedules, analytics dimensions, event names
  model: [],
  limits: [],
  // the engine: a URL or HTML in, a report out; no server, no database
  analysis: ['limits'],
  index: ['analysis'],
  // headless Chromium behind the guard proxy: the page as a browser builds it
  browser: ['analysis', 'limits'],
  config: ['analysis', 'model'],
  db: ['model'],
  // the HTTP toolkit every route uses: errors, envelopes, validation, logging, OpenAPI pieces
  http: ['model'],
  // a stored row → its public JSON shape, for the API and for events
  resources: ['analysis', 'db', 'http', 'model'],
  // HTML shared by share pages, the dashboard and mails
  render: ['analysis', 'model', 'resources'],
  accounts: ['db', 'limits', 'model'],
  sharing: ['accounts', 'db', 'model'],
  websites: ['model'],
  jobs: ['db', 'model'],
  mail: ['db', 'jobs', 'model', 'render'],
  reports: ['analysis', 'db', 'limits', 'model', 'resources', 'sharing'],
  webhooks: ['analysis', 'db', 'jobs', 'model', 'resources'],
  monitors: ['analysis', 'db', 'jobs', 'mail', 'model', 'render', 'reports', 'resources', 'sharing'],
  crawl: ['analysis', 'db', 'http', 'jobs', 'model', 'reports', 'resources', 'webhooks'],
  tracking: ['db', 'http', 'jobs', 'limits', 'model'],
  digests: ['db', 'jobs', 'mail', 'model', 'render', 'tracking'],
  // the composition root: every service of an instance, built once
  services: [...SHARED, ...FEATURES],
  api: [...SHARED, ...FEATURES, 'services'],
  web: ['accounts', 'analysis', 'db', 'http', 'limits', 'model', 'render', 'resources', 'sharing', 'tracking'],
  dashboard: [...SHARED, ...FEATURES, 'api', 'web'],
  app: [...SHARED, ...FEATURES, 'services', 'api', 'web', 'dashboard'],
  cli: [...SHARED, ...FEATURES, 'services', 'app'],
};

/** The folder of a module, from its path under src/ (`api/routes/reports.ts` → `api`, `app.ts` → `app`). */
export function folderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path.replace(/\.ts$/, '') : path.slice(0, slash);
}

/**
 * Every import that the table does not allow, as `from → to` lines (paths under src/), and every
 * folder the table does not know. `graph`: module → the modules it imports.
 */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>, layers = LAYERS): string[] {
  const problems: string[] = [];
  for (const [from, imports] of graph) {
    const source = folderOf(from);
    const allowed = layers[source];
    if (allowed === undefined) {
      problems.push(`${from}: the folder "${source}" has no row in the layer table`);
      continue;
    }
    for (const to of imports) {
      const target = folderOf(to);
      if (target === source || (BASE as readonly string[]).includes(target) || allowed.includes(target)) continue;
      problems.push(`${from} → ${to} (${source} may not import ${target})`);
    }
  }
  return problems;
}
