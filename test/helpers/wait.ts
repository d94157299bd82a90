// Waiting for an event rather than for a time: a loaded machine is slower, never "wrong".

/** Polls `condition` every few milliseconds until it holds; fails after `timeoutMs` (30 s). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 30_000, what = 'a condition' } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
