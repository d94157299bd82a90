import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * The CLI exactly as `npm start` runs it: bin/ runs the bundle in dist/bundle/, which
 * scripts/test.mjs builds once before the suite (bin/ would build it itself when src/ is newer).
 * From source through tsx a process took seconds more to start, and carried the TypeScript
 * loader in itself and in each worker (~50 MB). test/cli-analyze.test.ts runs the source entry.
 */
export const CLI = ['bin/rankscope.mjs'];

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, collecting its output. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    child.stdin.end(options.stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}, { stdin }: { stdin?: string } = {}): Promise<Finished> {
  return runCommand(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, stdin });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts `serve` and resolves once it answers; output is collected on the returned object. */
export interface RunningServer {
  child: ChildProcess;
  port: number;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM by default) unless it already ended, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // A hang detector, not a timing: from source through tsx on a loaded two-core CI machine a
  // start took over 30 s, against 3-4 s idle.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      await fetch(`http://127.0.0.1:${port}/api/v1/websites`);
      break;
    } catch {
      if (Date.now() > deadline) {
        // Its open pipes would otherwise keep the test file, and the whole suite, from ending.
        child.kill('SIGKILL');
        await exited;
        throw new Error(`server did not start within 90 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return {
    child,
    port,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
