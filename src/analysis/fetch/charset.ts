// Decoding the page: BOM > Content-Type charset > <meta> prescan of the first 1024 bytes >
// UTF-8 (docs/checks.md §2), with the WHATWG label table (`latin1` → windows-1252, `gb2312` → gbk).
//
// The decoder is @exodus/bytes' WHATWG TextDecoder, not Node's: Node 20's own decodes
// windows-1252 as ISO-8859-1 (0x80 gives U+0080 instead of "€"), and that is the encoding of
// every page labelled latin1, iso-8859-1 or ascii.
import { TextDecoder } from '@exodus/bytes/encoding.js';
import sniffHTMLEncoding from 'html-encoding-sniffer';
import { parseMIMEType } from 'undici';

/** The `charset` parameter of a Content-Type value, if any. */
function contentTypeCharset(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const mime = parseMIMEType(contentType);
  return mime === 'failure' ? undefined : mime.parameters.get('charset');
}

function decoderFor(encodingName: string): InstanceType<typeof TextDecoder> {
  try {
    return new TextDecoder(encodingName);
  } catch {
    // Only the "replacement" pseudo-encoding (ISO-2022-KR & co.) lands here; read it as the default.
    return new TextDecoder('utf-8');
  }
}

/** Decodes the page bytes; invalid sequences become U+FFFD, never an error. */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): { html: string; charset: string } {
  const name = sniffHTMLEncoding(bytes, {
    transportLayerEncodingLabel: contentTypeCharset(contentType),
    defaultEncoding: 'UTF-8',
  });
  const decoder = decoderFor(name);
  return { html: decoder.decode(bytes), charset: decoder.encoding };
}
