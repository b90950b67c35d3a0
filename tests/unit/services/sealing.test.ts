import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RecordSealer, SealBroken } from '../../../src/main/services/cache/sealing.ts';
import { SearchTokens, wordsOf } from '../../../src/main/services/cache/searchTokens.ts';
import { centsOf } from '../../../src/main/services/cache/money.ts';
import { csvCell, csvLine } from '../../../src/main/services/cache/csvExport.ts';
import { decodeCursor, encodeCursor } from '../../../src/main/services/cache/keysetCursor.ts';

describe('RecordSealer', () => {
  const key = randomBytes(32);

  it('round-trips a record, with a fresh IV per write', () => {
    const sealer = new RecordSealer(key, 'cache-1');
    const first = sealer.seal('{"desc":"COFFEE"}', 'row-1');
    const second = sealer.seal('{"desc":"COFFEE"}', 'row-1');
    expect(first.equals(second)).toBe(false);
    expect(first.subarray(1, 13).equals(second.subarray(1, 13))).toBe(false);
    expect(first.includes(Buffer.from('COFFEE'))).toBe(false);
    expect(sealer.open(first, 'row-1').toString()).toBe('{"desc":"COFFEE"}');
  });

  it('refuses a body moved to another row (identity is associated data)', () => {
    const sealer = new RecordSealer(key, 'cache-1');
    const sealed = sealer.seal('secret', 'row-1');
    expect(() => sealer.open(sealed, 'row-2')).toThrow(SealBroken);
  });

  it('refuses a tampered body and another key', () => {
    const sealer = new RecordSealer(key, 'cache-1');
    const sealed = sealer.seal('secret', 'row-1');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => sealer.open(tampered, 'row-1')).toThrow(SealBroken);
    expect(() => new RecordSealer(randomBytes(32), 'cache-1').open(sealed, 'row-1')).toThrow(SealBroken);
    expect(() => new RecordSealer(key, 'cache-2').open(sealed, 'row-1')).toThrow(SealBroken);
  });

  it('makes record digests that depend on the key and the cache, 132 bits in base64url', () => {
    const one = new RecordSealer(key, 'c').recordDigest('{"amount":"1.00"}');
    expect(one).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new RecordSealer(key, 'c').recordDigest('{"amount":"1.00"}')).toBe(one);
    expect(new RecordSealer(key, 'c').recordDigest('{"amount":"1.01"}')).not.toBe(one);
    expect(new RecordSealer(key, 'other cache').recordDigest('{"amount":"1.00"}')).not.toBe(one);
    expect(new RecordSealer(randomBytes(32), 'c').recordDigest('{"amount":"1.00"}')).not.toBe(one);
    // Not the plain hash of the text: the secret prefix is part of it.
    expect(one).not.toBe(createHash('sha256').update('{"amount":"1.00"}').digest('base64url').slice(0, 22));
  });

  it('makes keyed hashes that depend on the key', () => {
    const one = new RecordSealer(key, 'c').keyedHash('coffee');
    expect(new RecordSealer(key, 'c').keyedHash('coffee')).toBe(one);
    expect(new RecordSealer(randomBytes(32), 'c').keyedHash('coffee')).not.toBe(one);
  });
});

describe('search tokens', () => {
  it('splits into lower-case, accent-free, unique words', () => {
    expect(wordsOf('Café  CAFE, crème-brûlée #42')).toEqual(['cafe', 'creme', 'brulee', '42']);
  });

  it('indexes keyed hashes, never the words, and matches all query words', () => {
    const tokens = new SearchTokens((text, bytes) => new RecordSealer(randomBytes(32), 'c').keyedHash(text, bytes));
    const stable = new SearchTokens((text, bytes) => new RecordSealer(Buffer.alloc(32, 7), 'c').keyedHash(text, bytes));
    const indexed = stable.tokensOf('COFFEE SHOP 0421');
    expect(indexed).not.toMatch(/coffee|shop/i);
    expect(indexed.split(' ')).toHaveLength(3);
    expect(indexed).toMatch(/^[a-z0-9 ]+$/);
    expect(stable.matchOf('shop coffee')).toBe(`"${indexed.split(' ')[1] ?? ''}" AND "${indexed.split(' ')[0] ?? ''}"`);
    expect(tokens.matchOf('  ,, ')).toBeNull();
  });
});

describe('cache helpers', () => {
  it('turns money strings into integer cents without floats', () => {
    expect(centsOf('12.34')).toBe(1234);
    expect(centsOf('-0.50')).toBe(-50);
    expect(centsOf('90071992547409.91')).toBe(9007199254740991);
    expect(() => centsOf('1.5')).toThrow(/two decimals/);
    expect(() => centsOf('90071992547409.92')).toThrow(/too large/);
  });

  it('writes CSV cells safely: quotes, arrays, objects and formula injection', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    // A list is joined with `;`, a separator for some importers (N8): quoted, so it stays one cell.
    expect(csvCell(['ttx_1', 'ttx_2'])).toBe('"ttx_1;ttx_2"');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n');
  });

  it('refuses a cursor from another query or not made by the cache', () => {
    const cursor = encodeCursor('query-a', '2024-01-01', 'row');
    expect(decodeCursor(cursor, 'query-a')).toEqual(['2024-01-01', 'row']);
    expect(() => decodeCursor(cursor, 'query-b')).toThrow(/another query/);
    expect(() => decodeCursor('not-a-cursor', 'query-a')).toThrow(/not one this cache made/);
  });
});
