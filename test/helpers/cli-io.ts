// A CLI command's stdout and stderr captured in memory, for commands run in the test's process.
import { Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';

export interface CapturedIo {
  io: CliIo;
  stdout(): string;
  stderr(): string;
  /** Forgets what was written so far (one capture for several runs). */
  clear(): void;
}

/** `isTTY` is set on a stream only when asked (a command reads it to decide on progress output). */
export function captureIo(options: { stdoutIsTTY?: boolean; stderrIsTTY?: boolean } = {}): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[], isTTY: boolean | undefined) => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
    return isTTY === undefined ? stream : Object.assign(stream, { isTTY });
  };
  return {
    io: { stdout: sink(out, options.stdoutIsTTY), stderr: sink(err, options.stderrIsTTY) },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
    clear: () => {
      out.length = 0;
      err.length = 0;
    },
  };
}
