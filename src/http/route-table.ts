// Remembers every registered route so an unmatched request can tell "unknown path" (404) from
// "known path, wrong method" (405 with Allow), as Laravel's router does.

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class RouteTable {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .replace(/\/+$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    const existing = this.routes.find((r) => r.pattern.source === pattern.source);
    const list = Array.isArray(methods) ? methods : [methods];
    if (existing) for (const m of list) existing.methods.add(m);
    else this.routes.push({ pattern, methods: new Set(list) });
  }

  /** The methods this path answers to, in Laravel's order; empty when the path is unknown. */
  allowed(path: string): string[] {
    const found = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const m of route.methods) found.add(m);
    return METHOD_ORDER.filter((m) => found.has(m));
  }
}
