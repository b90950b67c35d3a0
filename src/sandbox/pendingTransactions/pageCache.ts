/**
 * Recently served pages of pending transactions, kept as the finished bytes of the answer.
 * Building a page (query + join) costs far more than sending it, and clients re-read the same
 * pages; a write to an account drops every page of that account, so a hit is never stale.
 * Bounded by entries and bytes, least recently used first out.
 */
export interface PageCache {
  get(key: string): Buffer | undefined;
  set(accountId: string, key: string, page: Buffer): void;
  invalidate(accountId: string): void;
  clear(): void;
  size(): number;
}

export function createPageCache(maxEntries = 1024, maxBytes = 96 * 1024 * 1024): PageCache {
  const pages = new Map<string, { accountId: string; page: Buffer }>();
  const keysByAccount = new Map<string, Set<string>>();
  let bytes = 0;

  function drop(key: string): void {
    const entry = pages.get(key);
    if (entry === undefined) return;
    pages.delete(key);
    bytes -= entry.page.length;
    keysByAccount.get(entry.accountId)?.delete(key);
  }

  return {
    get(key) {
      const entry = pages.get(key);
      if (entry === undefined) return undefined;
      // Refresh its place in the recency order (a Map iterates in insertion order).
      pages.delete(key);
      pages.set(key, entry);
      return entry.page;
    },
    set(accountId, key, page) {
      if (page.length > maxBytes || maxEntries === 0) return;
      drop(key);
      pages.set(key, { accountId, page });
      bytes += page.length;
      let keys = keysByAccount.get(accountId);
      if (keys === undefined) {
        keys = new Set();
        keysByAccount.set(accountId, keys);
      }
      keys.add(key);
      while (pages.size > maxEntries || bytes > maxBytes) {
        const oldest = pages.keys().next();
        if (oldest.done === true) break;
        drop(oldest.value);
      }
    },
    invalidate(accountId) {
      const keys = keysByAccount.get(accountId);
      if (keys === undefined) return;
      for (const key of [...keys]) drop(key);
      keysByAccount.delete(accountId);
    },
    clear() {
      pages.clear();
      keysByAccount.clear();
      bytes = 0;
    },
    size: () => pages.size,
  };
}
