// Local HTTP(S) servers for the fetch, SSRF and CLI tests: loopback only, random ports, every
// request and connection recorded so tests can count them and see sockets close.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../../src/analysis/config.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  /** `http://host:port` */
  origin: string;
  host: string;
  port: number;
  requests: RecordedRequest[];
  /** Connections accepted so far. */
  connections: number;
  /** Connections currently open. */
  openSockets: Set<Socket>;
  /** Paths requested, in order. */
  paths(): string[];
  /** Resolves once every connection accepted so far has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

function track(server: Server, host: string, scheme: string): TestServer {
  const requests: RecordedRequest[] = [];
  const openSockets = new Set<Socket>();
  const state: TestServer = {
    origin: '',
    host,
    port: 0,
    requests,
    connections: 0,
    openSockets,
    paths: () => requests.map((r) => r.path),
    allClosed: async () => {
      // A socket leaves the set on 'close', so every one still in it has yet to emit it.
      // (Not events.once: a reset socket emits 'error' first, which once() would reject on.)
      await Promise.all([...openSockets].map((s) => new Promise((resolve) => s.once('close', resolve))));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    state.connections++;
    openSockets.add(socket);
    socket.on('close', () => openSockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
  });
  const address = () => server.address() as { port: number };
  Object.defineProperty(state, 'port', { get: () => address().port });
  Object.defineProperty(state, 'origin', {
    get: () => `${scheme}://${host.includes(':') ? `[${host}]` : host}:${address().port}`,
  });
  return state;
}

async function listen(server: Server, host: string, port = 0): Promise<void> {
  server.listen(port, host);
  await once(server, 'listening');
}

export async function startServer(handler: Handler, host = '127.0.0.1', port = 0): Promise<TestServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error) => {
      res.destroy(error as Error);
    });
  });
  const state = track(server, host, 'http');
  await listen(server, host, port);
  return state;
}

// Self-signed for CN=localhost: a client that verifies certificates must refuse it.
const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBfzCCASWgAwIBAgIUEEcfm7re5plOni1/kc2IxkAYmDAwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTIyMjI0MFoYDzIxMjYxMDI4
MjIyMjQwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASL4ApPUHPN+qzhCUhCr/kigh6qQg13JNDmKdcDG4JRoXQnHwu3jFrw
xePUc11Ok907bXx1GGg4PlrK+Fbglddbo1MwUTAdBgNVHQ4EFgQUBoLVR5D1VW6A
445Bbvyzj6DpWx8wHwYDVR0jBBgwFoAUBoLVR5D1VW6A445Bbvyzj6DpWx8wDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiA7daDTfYlCp23m8qPHd07m
1c9Uh35LzNesQ7xjEamF2QIhAN6S7ZtEi+i31WK6JcCwkeB35ZIOmSJitlLJU2XA
jmRL
-----END CERTIFICATE-----`;
const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgfCljDSlH4sy7gb8j
8P5RPgJq02GAh8wIh8xFrLKnl7ChRANCAASL4ApPUHPN+qzhCUhCr/kigh6qQg13
JNDmKdcDG4JRoXQnHwu3jFrwxePUc11Ok907bXx1GGg4PlrK+Fbglddb
-----END PRIVATE KEY-----`;

export async function startTlsServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const server = createTlsServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (req, res) => {
    void handler(req, res);
  });
  const state = track(server, host, 'https');
  // TLS servers report the TCP connection on 'connection' too, before the handshake.
  await listen(server, host);
  return state;
}

/** Serves a map of path → response; unknown paths answer 404. */
export function routes(
  table: Record<string, { status?: number; headers?: Record<string, string | string[]>; body?: string | Buffer }>,
): Handler {
  return (req, res) => {
    const path = req.url ?? '/';
    const entry = table[path];
    if (entry === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(entry.status ?? 200, entry.headers ?? { 'content-type': 'text/html; charset=utf-8' });
    res.end(entry.body ?? '');
  };
}

/** The default config with loopback allowed (fetch tests) and optional overrides. */
export function testConfig(request: Partial<AnalysisConfig['request']> = {}): AnalysisConfig {
  return {
    ...DEFAULT_CONFIG,
    request: { ...DEFAULT_CONFIG.request, allowPrivateAddresses: true, ...request },
  };
}

/** A veto for connection hooks: tests must never open a socket outside loopback. */
export function loopbackOnly(address: string): void {
  if (!/^127\.|^::1$|^::ffff:127\./.test(address)) throw new Error(`test tried to connect to ${address}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
