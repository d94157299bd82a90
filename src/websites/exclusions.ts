// exclude_ips and exclude_params: one entry per line; blanks and surrounding spaces dropped,
// duplicates removed; stored and returned newline-joined, or null when empty.
import ipaddr from 'ipaddr.js';

function entries(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r\n|\r|\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
}

/** An IPv4 (four-part decimal) or IPv6 address, or a CIDR range of either, in canonical form. */
export function normalizeIpEntry(entry: string): string | null {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) parsed = ipaddr.IPv4.parse(address);
  else if (ipaddr.IPv6.isValid(address) && !address.includes('%')) parsed = ipaddr.IPv6.parse(address);
  else return null;
  if (prefix === undefined) return parsed.toString();
  const max = parsed.kind() === 'ipv4' ? 32 : 128;
  if (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return `${parsed.toString()}/${Number(prefix)}`;
}

export type ListOutcome = { ok: true; value: string | null } | { ok: false; invalid: string };

export function normalizeIpList(text: string): ListOutcome {
  const out: string[] = [];
  for (const entry of entries(text)) {
    const normalized = normalizeIpEntry(entry);
    if (normalized === null) return { ok: false, invalid: entry };
    if (!out.includes(normalized)) out.push(normalized);
  }
  return { ok: true, value: out.length ? out.join('\n') : null };
}

// no control characters (PostgreSQL text cannot even hold U+0000) and no lone surrogates
const PARAM_NAME = /^[^\s\p{Cc}\p{Cs}&=#?]{1,255}$/u;

export function normalizeParamList(text: string): ListOutcome {
  const out = entries(text);
  const invalid = out.find((p) => !PARAM_NAME.test(p));
  if (invalid !== undefined) return { ok: false, invalid };
  return { ok: true, value: out.length ? out.join('\n') : null };
}
