import { describe, expect, it } from 'vitest';
import { createPageCache } from '../../../src/sandbox/pendingTransactions/pageCache.ts';

describe('page cache', () => {
  it('serves what it kept and drops every page of an account on a write to it', () => {
    const cache = createPageCache();
    cache.set('acct_a', 'a1', Buffer.from('1'));
    cache.set('acct_a', 'a2', Buffer.from('2'));
    cache.set('acct_b', 'b1', Buffer.from('3'));
    expect(cache.get('a1')?.toString()).toBe('1');
    cache.invalidate('acct_a');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.toString()).toBe('3');
  });

  it('stays within its entry and byte bounds, least recently used out first', () => {
    const byEntries = createPageCache(2, 1000);
    byEntries.set('x', 'k1', Buffer.from('1'));
    byEntries.set('x', 'k2', Buffer.from('2'));
    byEntries.get('k1');
    byEntries.set('x', 'k3', Buffer.from('3'));
    expect(byEntries.get('k2')).toBeUndefined();
    expect(byEntries.get('k1')).toBeDefined();
    expect(byEntries.size()).toBe(2);
    const byBytes = createPageCache(100, 10);
    byBytes.set('x', 'k1', Buffer.alloc(6));
    byBytes.set('x', 'k2', Buffer.alloc(6));
    expect(byBytes.size()).toBe(1);
    byBytes.set('x', 'huge', Buffer.alloc(11));
    expect(byBytes.get('huge')).toBeUndefined();
  });
});
