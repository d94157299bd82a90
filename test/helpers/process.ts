import { readFileSync } from 'node:fs';

/** Resident memory of a process in bytes (Linux /proc), or null once it is gone. */
export function rssOf(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
