/**
 * A window onto a long keyset-paged list. The cache answers pages by cursor; this keeps the
 * cursor of every page it has passed (a few bytes each) but the rows of only a bounded
 * number of pages near what is on screen, so a list of a million rows costs the renderer a
 * few thousand rows of memory. Pages are fetched one at a time, in order: a cursor is only
 * known once the page before it has arrived.
 */

export interface PageAnswer<Row> {
  rows: Row[];
  nextCursor: string | null;
  total?: number;
  asOf?: string | null;
}

export type PageFetcher<Row> = (cursor: string | undefined, limit: number) => Promise<PageAnswer<Row>>;

export interface PagedRowsOptions<Row = unknown> {
  pageSize?: number;
  /** How many pages of rows to keep; pages farthest from the wanted range go first. */
  maxPages?: number;
  /**
   * The list this one reads again (after a sync): its rows stay on screen until this one's
   * first page arrives, so a list read again never blanks to "Loading…" in between.
   */
  standIn?: PagedRows<Row> | null;
}

export type PagedRowsListener = () => void;

export class PagedRows<Row> {
  readonly pageSize: number;
  readonly maxPages: number;
  readonly #fetchPage: PageFetcher<Row>;
  readonly #pages = new Map<number, Row[]>();
  /** cursors[i] fetches page i; cursors[0] is undefined (the first page). */
  readonly #cursors: (string | undefined)[] = [undefined];
  readonly #listeners = new Set<PagedRowsListener>();
  #lastPage: number | null = null;
  #total: number | null = null;
  #wanted: [number, number] = [0, 0];
  #pumping = false;
  #closed = false;
  #error: unknown = null;
  #asOf: string | null = null;
  #firstPageArrived = false;
  #version = 0;
  /** Shown until the first page arrives (options.standIn), then forgotten. */
  #standIn: PagedRows<Row> | null;

  constructor(fetchPage: PageFetcher<Row>, options: PagedRowsOptions<Row> = {}) {
    this.#fetchPage = fetchPage;
    this.pageSize = options.pageSize ?? 200;
    this.maxPages = Math.max(4, options.maxPages ?? 24);
    // A stand-in that never showed rows itself has nothing to keep on screen.
    this.#standIn = options.standIn?.ready === true ? options.standIn : null;
  }

  /** True while the rows shown are still those of the list read again (options.standIn). */
  get standingIn(): boolean {
    return this.#standIn !== null;
  }

  /** Increases on every change, so a view can tell it must draw again. */
  get version(): number {
    return this.#version;
  }

  get error(): unknown {
    return this.#error;
  }

  get asOf(): string | null {
    return this.#standIn?.asOf ?? this.#asOf;
  }

  /** True once the first page has answered (even if empty), or a stand-in shows rows meanwhile. */
  get ready(): boolean {
    return this.#firstPageArrived || this.#standIn !== null;
  }

  get loading(): boolean {
    return this.#pumping;
  }

  /** The exact number of rows, once known (from the service's total or the last page). */
  get total(): number | null {
    if (this.#standIn !== null) return this.#standIn.total;
    if (this.#total !== null) return this.#total;
    if (this.#lastPage !== null) {
      return this.#lastPage * this.pageSize + (this.#pages.get(this.#lastPage)?.length ?? 0);
    }
    return null;
  }

  /**
   * How many rows a view should make room for: the exact total when known, else the rows
   * known to exist plus one page still to come (so scrolling reaches it and asks for it).
   */
  get count(): number {
    if (this.#standIn !== null) return this.#standIn.count;
    const total = this.total;
    if (total !== null) return total;
    if (!this.#firstPageArrived) return 0;
    return (this.#cursors.length - 1) * this.pageSize + this.pageSize;
  }

  /** How many rows are held in memory now. */
  get heldRows(): number {
    let held = 0;
    for (const rows of this.#pages.values()) held += rows.length;
    return held;
  }

  setTotal(total: number): void {
    this.#total = total;
    this.#changed();
  }

  rowAt(index: number): Row | undefined {
    if (this.#standIn !== null) return this.#standIn.rowAt(index);
    return this.#pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  subscribe(listener: PagedRowsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Asks for the rows first..last (inclusive) to be loaded; returns at once. */
  ensure(first: number, last: number): void {
    const firstPage = Math.max(0, Math.floor(first / this.pageSize));
    const lastPage = Math.max(firstPage, Math.floor(Math.max(first, last) / this.pageSize));
    this.#wanted = [firstPage, lastPage];
    void this.#pump();
  }

  /** Tries again after an error. */
  retry(): void {
    this.#error = null;
    this.#changed();
    void this.#pump();
  }

  /** Stops fetching: answers that arrive later are dropped. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
  }

  #nextPageToFetch(): number | null {
    const [firstPage, lastPage] = this.#wanted;
    for (let page = firstPage; page <= lastPage; page += 1) {
      if (this.#lastPage !== null && page > this.#lastPage) return null;
      if (this.#pages.has(page)) continue;
      // Its cursor is known once the page before it arrived; else walk from the frontier.
      return page < this.#cursors.length ? page : this.#cursors.length - 1;
    }
    return null;
  }

  async #pump(): Promise<void> {
    // Nothing to fetch (the usual case while scrolling through loaded pages): no change, no render.
    if (this.#pumping || this.#closed || this.#nextPageToFetch() === null) return;
    this.#pumping = true;
    this.#changed();
    try {
      for (let page = this.#nextPageToFetch(); page !== null; page = this.#nextPageToFetch()) {
        if (this.#error !== null || this.#isClosed()) break;
        let answer: PageAnswer<Row>;
        try {
          answer = await this.#fetchPage(this.#cursors[page], this.pageSize);
        } catch (error) {
          if (this.#isClosed()) return;
          this.#error = error;
          break;
        }
        if (this.#isClosed()) return;
        this.#store(page, answer);
      }
    } finally {
      this.#pumping = false;
      if (!this.#isClosed()) this.#changed();
    }
  }

  /** A method, not the field: the answer may change while a fetch is awaited. */
  #isClosed(): boolean {
    return this.#closed;
  }

  #store(page: number, answer: PageAnswer<Row>): void {
    this.#firstPageArrived = true;
    this.#standIn = null;
    this.#pages.set(page, answer.rows);
    if (answer.total !== undefined) this.#total = answer.total;
    if (answer.asOf !== undefined) this.#asOf = answer.asOf;
    if (answer.nextCursor === null || answer.rows.length === 0) {
      this.#lastPage = page;
    } else if (page + 1 === this.#cursors.length) {
      this.#cursors.push(answer.nextCursor);
    }
    this.#evict();
    this.#changed();
  }

  /** Keeps at most maxPages pages: the ones farthest from the wanted range go. */
  #evict(): void {
    if (this.#pages.size <= this.maxPages) return;
    const [firstPage, lastPage] = this.#wanted;
    const distance = (page: number): number =>
      page < firstPage ? firstPage - page : page > lastPage ? page - lastPage : 0;
    const byDistance = [...this.#pages.keys()].sort((a, b) => distance(b) - distance(a));
    for (const page of byDistance) {
      if (this.#pages.size <= this.maxPages) break;
      this.#pages.delete(page);
    }
  }

  #changed(): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener();
  }
}
