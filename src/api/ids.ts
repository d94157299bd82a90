import { notFound } from './errors.js';

/** A path id: plain decimal digits within range, else the resource's 404 (like an unknown id). */
export function parseId(raw: string, what: 'Report' | 'Website'): number {
  if (!/^[0-9]{1,10}$/.test(raw)) throw notFound(what);
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw notFound(what);
  return id;
}
