// The browser's only way out: a forward proxy on 127.0.0.1 that Chromium must use for every
// request (pages, scripts, XHR/fetch, images, iframes, prefetches, WebSockets, EventSource; loopback
// included). Each destination is resolved and checked by the analyser's address guard, and the
// socket is opened to the checked address itself (never re-resolved), so a DNS name, a redirect
// or a rebinding answer cannot reach what a report's fetch could not. Only the browser that was
// given this proxy's token may use it (Basic proxy authentication, a random token per proxy).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { type Socket, connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { resolveAllowedAddress, type AddressPolicy, type Resolver } from '../analysis/fetch/address-guard.js';
import type { ConnectHooks } from '../analysis/fetch/connector.js';

export interface GuardProxyOptions {
  policy: AddressPolicy;
  resolver: Resolver;
  /** A destination that takes longer to resolve and connect fails (the page's deadline is the renderer's). */
  connectTimeoutMs: number;
  /** Test-only: a veto right before each outgoing connection, with the exact address and port. */
  hooks?: ConnectHooks;
}

export interface GuardProxy {
  /** `http://127.0.0.1:PORT` */
  readonly server: string;
  readonly port: number;
  /** The credentials the browser sends (its launch options' proxy username and password). */
  readonly username: string;
  readonly password: string;
  /** Destinations refused so far (for logs and tests). */
  readonly refused: number;
  close(): Promise<void>;
}

const USERNAME = 'rankscope';
/** Marks the proxy's own 403 (a plain-http destination the guard refused), so the renderer can tell it from a site's. */
export const REFUSED_HEADER = 'x-rankscope-guard';
/** Request headers that belong to the hop to the proxy, not to the destination (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function hostAndPort(authority: string): { host: string; port: number } | null {
  // `example.com:443`, `[::1]:443`
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (match === null) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1], port } : null;
}

/** Starts the proxy on 127.0.0.1 and an ephemeral port. */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const password = randomBytes(24).toString('base64url');
  const expected = Buffer.from(`Basic ${Buffer.from(`${USERNAME}:${password}`).toString('base64')}`);
  const sockets = new Set<Duplex>();
  let refused = 0;

  const authorised = (req: IncomingMessage): boolean => {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  /** The checked address for `host`, then a socket to it; rejects when the guard refuses. */
  const open = async (host: string, port: number): Promise<Socket> => {
    const { address } = await resolveAllowedAddress(host, options.resolver, options.policy);
    options.hooks?.beforeConnect?.(address, port);
    const socket = netConnect({ host: address, port, timeout: options.connectTimeoutMs });
    track(socket);
    try {
      await Promise.race([
        once(socket, 'connect'),
        once(socket, 'timeout').then(() => {
          throw new Error('connect timeout');
        }),
      ]);
    } catch (error) {
      socket.destroy();
      throw error;
    }
    socket.setTimeout(0);
    return socket;
  };

  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (!authorised(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="rankscope"', connection: 'close', 'content-length': 0 }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-length': 0 }).end();
      return;
    }
    // Chromium sends https and wss through CONNECT; anything else absolute-form is refused.
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-length': 0 }).end();
      return;
    }
    const port = Number(target.port) || 80;
    open(target.hostname, port).then(
      (socket) => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        }
        const upstream = httpRequest(
          {
            createConnection: () => socket,
            method: req.method,
            path: `${target.pathname}${target.search}`,
            headers,
            setHost: false,
          },
          (answer) => {
            const out: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(answer.headers)) {
              if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
            }
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        res.on('close', () => upstream.destroy());
        req.pipe(upstream);
      },
      () => {
        refused++;
        res.writeHead(403, { 'content-length': 0, connection: 'close', [REFUSED_HEADER]: 'refused' }).end();
      },
    );
  };

  const onConnect = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const fail = (status: string, extra = '') => {
      client.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    if (!authorised(req)) return fail('407 Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="rankscope"\r\n');
    const destination = hostAndPort(req.url ?? '');
    if (destination === null) return fail('400 Bad Request');
    open(destination.host, destination.port).then(
      (upstream) => {
        if (client.destroyed) return upstream.destroy();
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
      () => {
        refused++;
        fail('403 Forbidden');
      },
    );
  };

  const server: Server = createServer(onRequest);
  server.on('connect', onConnect);
  // Upgrades come through CONNECT; an absolute-form Upgrade request is not something we pass on.
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => socket.destroy());
  server.on('connection', (socket: Socket) => track(socket));
  server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;

  return {
    server: `http://127.0.0.1:${port}`,
    port,
    username: USERNAME,
    password,
    get refused() {
      return refused;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
