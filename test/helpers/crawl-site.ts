// A fixture web site for crawl tests, on 127.0.0.1: pages by path (HTML, redirects, any status
// or type), every request recorded with its start time, and the most requests ever in flight at
// once (each answer can be held `delayMs` so concurrency shows).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SitePage {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type SiteRoute = SitePage | ((req: IncomingMessage) => SitePage);

export interface CrawlSite {
  origin: string;
  port: number;
  /** Paths (with query) requested, in order. */
  requests: { path: string; at: number; userAgent: string; method: string }[];
  /** How many times each path was requested. */
  count(path: string): number;
  maxInFlight: number;
  /** Requests being answered right now. */
  inFlight: number;
  /** Requests whose client gave up (closed the connection) before the answer was sent. */
  abandoned: number;
  /** Holds every answer (requests still arrive and are recorded) until the returned function is called. */
  hold(): () => void;
  /** Adds or replaces pages while the site runs. */
  set(routes: Record<string, SiteRoute>): void;
  close(): Promise<void>;
}

/** A page with a title, a description and links: each page unique unless the caller says otherwise. */
export function htmlPage(
  options: { title?: string; description?: string | null; links?: string[]; head?: string; body?: string } = {},
): SitePage {
  const title = options.title ?? `Page ${Math.random().toString(36).slice(2)}`;
  const description =
    options.description === null
      ? ''
      : `<meta name="description" content="${options.description ?? `About ${title}, in a sentence or two.`}">`;
  const links = (options.links ?? []).map((href) => `<a href="${href}">${href}</a>`).join('\n');
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${description}${options.head ?? ''}</head><body><h1>${title}</h1><p>Some text about ${title}.</p>${links}${options.body ?? ''}</body></html>`,
  };
}

export function redirect(to: string, status = 301): SitePage {
  return { status, headers: { location: to }, body: '' };
}

/** `host`: the loopback address to listen on (127.0.0.1 unless said); `port`: a given port (0: any). */
export async function startCrawlSite(
  routes: Record<string, SiteRoute>,
  options: { delayMs?: number; host?: string; port?: number } = {},
): Promise<CrawlSite> {
  const table = new Map(Object.entries(routes));
  let inFlight = 0;
  let gate: Promise<void> | null = null;
  const sockets = new Set<Socket>();
  const site: CrawlSite = {
    origin: '',
    port: 0,
    requests: [],
    maxInFlight: 0,
    abandoned: 0,
    get inFlight() {
      return inFlight;
    },
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    count: (path) => site.requests.filter((r) => r.path === path).length,
    set(more) {
      for (const [path, route] of Object.entries(more)) table.set(path, route);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    const path = req.url ?? '/';
    site.requests.push({ path, at: Date.now(), userAgent: String(req.headers['user-agent'] ?? ''), method: req.method ?? 'GET' });
    res.on('close', () => {
      if (!res.writableFinished) site.abandoned++;
    });
    try {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      while (gate) await gate;
      const route = table.get(path) ?? table.get(path.split('?')[0]);
      const page: SitePage =
        route === undefined
          ? { status: 404, type: 'text/html', body: '<!doctype html><title>Not found</title>' }
          : typeof route === 'function'
            ? route(req)
            : route;
      res.writeHead(page.status ?? 200, { ...(page.type ? { 'content-type': page.type } : {}), ...page.headers });
      res.end(page.body ?? '');
    } finally {
      inFlight--;
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  site.port = (server.address() as AddressInfo).port;
  site.origin = `http://${host}:${site.port}`;
  return site;
}
