// A webhook receiver on a loopback address, started by the test: it records every request (raw
// body bytes included) and answers with whatever status the test sets for the path.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  raw: Buffer;
}

export interface Receiver {
  origin: string;
  port: number;
  received: Received[];
  /** The requests to one path. */
  at(path: string): Received[];
  /** Answers requests to `path` with `status` (200 by default), or with `handler`'s answer. */
  answer(path: string, status: number | ((count: number) => number), headers?: Record<string, string>): void;
  /** Requests to `path` get no answer (the connection stays open until the receiver closes). */
  hang(path: string): void;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1', port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const statuses = new Map<string, { status: number | ((count: number) => number); headers: Record<string, string> }>();
  const hanging = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      received.push({ method: req.method ?? '', path, headers: req.headers, raw: Buffer.concat(chunks) });
      if (hanging.has(path)) return;
      const rule = statuses.get(path);
      const count = received.filter((r) => r.path === path).length;
      const status = rule === undefined ? 200 : typeof rule.status === 'function' ? rule.status(count) : rule.status;
      res.writeHead(status, { 'content-type': 'text/plain', ...rule?.headers });
      res.end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const bound = (server.address() as { port: number }).port;
  return {
    origin: `http://${host}:${bound}`,
    port: bound,
    received,
    at: (path) => received.filter((r) => r.path === path),
    answer: (path, status, headers = {}) => statuses.set(path, { status, headers }),
    hang: (path) => hanging.add(path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
