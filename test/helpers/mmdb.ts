// A tiny MaxMind DB (MMDB format 2.0, IPv4 tree, 24-bit records) written from a few addresses
// and their records, so tests can give GEOIP_CITY_DB a city database of their own. The format:
// https://maxmind.github.io/MaxMind-DB/ (search tree, 16 zero bytes, data section, metadata).
import { writeFileSync } from 'node:fs';

type Value = string | number | bigint | Value[] | { [key: string]: Value };

const RECORD_BYTES = 3;

/** The control byte(s) of a field: its type (1–15; 8+ are "extended") and its size. */
function control(type: number, size: number): Buffer {
  const sizeBytes: number[] = [];
  let sizeBits = size;
  if (size >= 29 + 256) throw new Error('field too long for this writer');
  if (size >= 29) {
    sizeBits = 29;
    sizeBytes.push(size - 29);
  }
  const head = type <= 7 ? [(type << 5) | sizeBits] : [sizeBits, type - 7];
  return Buffer.from([...head, ...sizeBytes]);
}

function unsigned(type: number, n: number | bigint): Buffer {
  let hex = BigInt(n).toString(16);
  if (hex === '0') hex = '';
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([control(type, bytes.length), bytes]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'bigint') return unsigned(9, value); // uint64
  if (typeof value === 'number') return unsigned(value <= 0xffff ? 5 : 6, value); // uint16 / uint32
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** Writes `file`: each IPv4 address (a /32) answers its record; every other address, nothing. */
export function writeCityDatabase(file: string, records: Record<string, { [key: string]: Value }>): void {
  // The tree as nodes of [left, right]: a node index, or a data offset marked by `data`.
  const nodes: [Slot, Slot][] = [[null, null]];
  const data: Buffer[] = [];
  let dataSize = 0;
  for (const [address, record] of Object.entries(records)) {
    const bits = address
      .split('.')
      .map((octet) => Number(octet).toString(2).padStart(8, '0'))
      .join('');
    const encoded = encode(record);
    const offset = dataSize;
    data.push(encoded);
    dataSize += encoded.length;
    let node = 0;
    for (let depth = 0; depth < 32; depth++) {
      const side = bits[depth] === '1' ? 1 : 0;
      if (depth === 31) {
        nodes[node][side] = { data: offset };
        break;
      }
      const next = nodes[node][side];
      if (next === null) {
        nodes.push([null, null]);
        nodes[node][side] = nodes.length - 1;
        node = nodes.length - 1;
      } else if (typeof next === 'number') node = next;
      else throw new Error(`${address} overlaps another address`);
    }
  }
  const count = nodes.length;
  const tree = Buffer.alloc(count * 2 * RECORD_BYTES);
  const slotValue = (slot: Slot) => (slot === null ? count : typeof slot === 'number' ? slot : count + 16 + slot.data);
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(slotValue(left), i * 6, RECORD_BYTES);
    tree.writeUIntBE(slotValue(right), i * 6 + 3, RECORD_BYTES);
  });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_790_000_000n,
    database_type: 'Rankscope-Test-City',
    description: { en: 'Test city database' },
    ip_version: 4,
    languages: ['en'],
    node_count: count,
    record_size: RECORD_BYTES * 8,
  });
  writeFileSync(
    file,
    Buffer.concat([
      tree,
      Buffer.alloc(16),
      ...data,
      Buffer.from('abcdef', 'hex'),
      Buffer.from('MaxMind.com', 'latin1'),
      metadata,
    ]),
  );
}

type Slot = number | { data: number } | null;
