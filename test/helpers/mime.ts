// Just enough MIME to read what the mail tests receive (RFC 2045–2047): headers (unfolded, with
// encoded words decoded), a multipart body split at its boundary, and each part decoded from
// quoted-printable or base64 as UTF-8.

export interface MimePart {
  headers: Map<string, string>;
  /** The media type, lower-cased, without parameters (`text/plain`). */
  type: string;
  /** The decoded body, as text, with CRLF line ends made LF (as a reader sees it). */
  body: string;
  parts: MimePart[];
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?') // whitespace between adjacent encoded words is not text
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    });
}

function decodeQuotedPrintable(text: string): string {
  const softBreaks = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaks.length; i++) {
    const c = softBreaks[i];
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(softBreaks.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(softBreaks.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function parameter(header: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}=("([^"]*)"|[^;\\s]+)`, 'i').exec(header);
  return match ? (match[2] ?? match[1]) : undefined;
}

export function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerBlock = split ? raw.slice(0, split.index) : raw;
  const bodyText = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = parameter(contentType, 'boundary');
    if (!boundary) throw new Error('a multipart message without a boundary');
    const pieces = bodyText.split(
      new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*\\r?\\n?`),
    );
    const parts = pieces.slice(1, -1).map(parseMime);
    return { headers, type, body: '', parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(bodyText)
      : encoding === 'base64'
        ? Buffer.from(bodyText.replace(/\s+/g, ''), 'base64').toString('utf8')
        : bodyText;
  return { headers, type, body: body.replace(/\r\n/g, '\n'), parts: [] };
}

/** The first part (at any depth) of this media type. */
export function findPart(root: MimePart, type: string): MimePart | undefined {
  if (root.type === type) return root;
  for (const part of root.parts) {
    const found = findPart(part, type);
    if (found) return found;
  }
  return undefined;
}
