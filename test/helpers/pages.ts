// A tiny web site on 127.0.0.1 for the analyser to fetch in API tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageSite {
  origin: string;
  port: number;
  /** Replace or add a page at runtime (e.g. to change a page between two analyses). */
  set(path: string, handler: PageHandler | string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export const html =
  (body: string, headers: Record<string, string> = {}): PageHandler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };

/** A page that passes most checks: title, description, one h1, keywords, alt texts, viewport, lang… */
export function goodPage(title = 'Blue widgets for sale'): string {
  const words = Array.from({ length: 520 }, (_, i) => `blue widget word${i % 50}`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="Hand-made blue widgets."><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.png"><meta property="og:title" content="${title}"></head>
<body><h1>Our widgets</h1><p>${words}</p><a href="https://twitter.com/widgets">Twitter</a></body></html>`;
}

export async function startSite(pages: Record<string, PageHandler | string>): Promise<PageSite> {
  const routes = new Map<string, PageHandler>();
  const counts = new Map<string, number>();
  const set = (path: string, handler: PageHandler | string) =>
    routes.set(path, typeof handler === 'string' ? html(handler) : handler);
  for (const [path, handler] of Object.entries(pages)) set(path, handler);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    set,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
