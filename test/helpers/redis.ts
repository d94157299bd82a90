// A private redis-server on a free loopback port, so a test can stop it without touching the
// machine's shared Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './spawn.js';

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export async function startRedis(): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const { Redis } = await import('ioredis');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    probe.on('error', () => {}); // refused until the server is up
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      break;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
