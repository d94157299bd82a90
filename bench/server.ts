// What several benchmarks share: a free loopback port, `rankscope serve` as a child process
// (compiled, as production runs it) and waiting until something answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { ROOT } from './paths.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Resolves once `url` answers at all (any status), within 30 s. */
export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** `rankscope serve` on 127.0.0.1, answering: its process and base URL. */
export async function startRankscope(env: Record<string, string>): Promise<{ proc: ChildProcess; api: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['bin/rankscope.mjs', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const api = `http://127.0.0.1:${port}`;
  await waitFor(`${api}/health`);
  return { proc, api };
}
