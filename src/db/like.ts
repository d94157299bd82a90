import { sql, type RawBuilder } from 'kysely';

/** `lower(column) LIKE '%term%'` with LIKE's wildcards in the term escaped: a case-insensitive substring test on both engines. */
export function containsIgnoringCase(column: string, term: string): RawBuilder<boolean> {
  const escaped = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}
