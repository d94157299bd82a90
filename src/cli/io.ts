/** Where a command writes (and, for the few that read, reads): the process's streams, or a test's. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Standard input, whole (at most 64 KiB); absent in tests that give none, where it reads as empty. */
  stdin?: NodeJS.ReadableStream;
}

/** Reads standard input to its end (a pipe) or its first line (a terminal). */
export async function readStdin(io: CliIo): Promise<string> {
  const input = io.stdin;
  if (!input) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    size += buffer.length;
    if (size > 65_536 || ((input as { isTTY?: boolean }).isTTY && buffer.includes(10))) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
