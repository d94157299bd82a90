// Reading a response body with limits: Content-Encoding is undone by streaming zlib decoders,
// the size cap counts DECODED bytes, and a ratio guard stops decompression bombs early.
// Backpressure is kept end to end, so no more than the cap (plus one chunk) is ever held.
import { Readable, pipeline, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { FetchError } from '../errors.js';

type Chunks = AsyncIterable<Buffer>;
type Decoder = (source: Chunks, track: (z: zlib.Zlib) => void) => Chunks;

const createZstdDecompress = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/** The encodings this runtime can undo, for Accept-Encoding. */
export const ACCEPT_ENCODING = createZstdDecompress ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

// Like browsers, accept a body whose compressed stream stops early instead of failing it.
const lenient = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const lenientBrotli = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

async function* throughZlib(source: Chunks, z: Transform & zlib.Zlib, track: (z: zlib.Zlib) => void): Chunks {
  track(z);
  const input = Readable.from(source, { objectMode: false });
  // Errors on either side surface through the iteration of `z` below.
  pipeline(input, z, () => {});
  try {
    for await (const chunk of z) yield chunk as Buffer;
  } finally {
    z.destroy();
    input.destroy();
  }
}

/** `deflate` is meant to be zlib-wrapped (RFC 9110) but many servers send raw deflate. */
async function* inflateEither(source: Chunks, track: (z: zlib.Zlib) => void): Chunks {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < 2) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const start = Buffer.concat(head);
  // RFC 1950: CM = 8 in the low nibble of CMF, and CMF·256 + FLG is a multiple of 31.
  const zlibWrapped = start.length >= 2 && (start[0] & 0x0f) === 8 && ((start[0] << 8) | start[1]) % 31 === 0;
  async function* whole(): Chunks {
    if (start.length > 0) yield start;
    if (!ended) yield* { [Symbol.asyncIterator]: () => iterator };
  }
  yield* throughZlib(whole(), zlibWrapped ? zlib.createInflate(lenient) : zlib.createInflateRaw(lenient), track);
}

function decoderFor(encoding: string): Decoder | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return (source, track) => throughZlib(source, zlib.createGunzip(lenient), track);
    case 'br':
      return (source, track) => throughZlib(source, zlib.createBrotliDecompress(lenientBrotli), track);
    case 'deflate':
      return inflateEither;
    case 'zstd':
      return createZstdDecompress
        ? (source, track) => throughZlib(source, createZstdDecompress() as Transform & zlib.Zlib, track)
        : null;
    default:
      return null;
  }
}

/**
 * The codings of a Content-Encoding header in the order they were applied (`identity`
 * dropped). Throws `bad_encoding` for one this runtime cannot undo.
 */
export function parseContentEncoding(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const codings = values
    .flatMap((v) => v.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  for (const coding of codings) {
    if (decoderFor(coding) === null) throw new FetchError('bad_encoding', { encoding: coding });
  }
  return codings;
}

export interface BodyLimits {
  /** Most decoded bytes to accept. */
  maxBytes: number;
  /** Past `maxBytes`: fail with `too_large` (the page) or keep the first `maxBytes` (robots.txt). */
  overflow: 'fail' | 'truncate';
  /** Decoded ÷ consumed wire bytes beyond which the body is refused, once past `ratioAfterBytes`. */
  maxRatio?: number;
  ratioAfterBytes?: number;
}

export interface BodyRead {
  bytes: Buffer;
  /** Bytes received on the wire (after de-chunking, before decoding). */
  wireBytes: number;
}

/**
 * Reads `body` (an undici response body) through the decoders of `codings`. The body is always
 * consumed or destroyed when this settles.
 */
export async function readBody(body: Readable, codings: string[], limits: BodyLimits): Promise<BodyRead> {
  let wireBytes = 0;
  async function* wire(): Chunks {
    for await (const chunk of body) {
      wireBytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  // The wire-facing decoder's `bytesWritten` is the compressed input it has actually consumed;
  // the bytes merely read ahead into its buffers would understate the ratio.
  let wireDecoder: zlib.Zlib | null = null;
  let decoded: Chunks = wire();
  for (const [index, coding] of [...codings].reverse().entries()) {
    const decoder = decoderFor(coding);
    if (decoder === null) throw new FetchError('bad_encoding', { encoding: coding });
    decoded = decoder(decoded, index === 0 ? (z) => (wireDecoder = z) : () => {});
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded) {
      const room = limits.maxBytes - size;
      if (chunk.length > room) {
        if (limits.overflow === 'fail') throw new FetchError('too_large', { maxBytes: limits.maxBytes });
        chunks.push(chunk.subarray(0, room));
        size += room;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
      if (limits.maxRatio !== undefined && size > (limits.ratioAfterBytes ?? 0)) {
        const consumed = (wireDecoder as zlib.Zlib | null)?.bytesWritten ?? wireBytes;
        if (size > limits.maxRatio * Math.max(consumed, 1)) {
          throw new FetchError('too_large', {
            message: `The page expands more than ${limits.maxRatio} times when decompressed (a decompression bomb).`,
          });
        }
      }
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (isZlibError(error)) {
      throw new FetchError('bad_encoding', { message: 'The page body is not validly compressed.', cause: error });
    }
    throw error;
  } finally {
    if (!body.readableEnded) body.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), wireBytes };
}

/** zlib reports Z_DATA_ERROR & co.; brotli ERR__ERROR_FORMAT_… and similar. */
function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZSTD|ERR_ZLIB)/.test(code);
}
