/**
 * Rendered answers of the ratings and preference routes (pages, downloads, chart PNGs), kept by a key that
 * holds the version of the results they are drawn from (versions.ts) and the normalised query: the same
 * request renders once per version, however often it is asked, and concurrent requests for one key share
 * one render (lru-cache's `fetch`). Bounded by bytes, least recently used first out; a failed render is not
 * kept (the next request tries again).
 */
import { LRUCache } from 'lru-cache';

/** Bytes of rendered answers kept at most (PNG charts are ~30–80 kB, pages a few kB). */
export const RENDER_CACHE_BYTES = 32 * 1024 * 1024;

/** What a cached answer holds: a rendered body (text or bytes) with anything else its route needs. */
export interface Rendered {
  /** Size in bytes for the bound (text length for strings). */
  size: number;
}

type Make = () => Promise<Rendered>;

/** The cache; `renders` counts renders (misses), `hits` answers from the cache. */
export class RenderCache {
  renders = 0;
  hits = 0;
  private readonly lru: LRUCache<string, Rendered, Make>;

  constructor(maxBytes: number = RENDER_CACHE_BYTES) {
    this.lru = new LRUCache<string, Rendered, Make>({
      maxSize: maxBytes,
      sizeCalculation: (v) => Math.max(1, v.size),
      fetchMethod: async (_key, _stale, { context }) => {
        this.renders++;
        return context();
      },
    });
  }

  /** The answer under `key`, made by `make` if it is not kept yet (once for concurrent callers). Rejects when `make` does. */
  async get<T extends Rendered>(key: string, make: () => Promise<T>): Promise<T> {
    if (this.lru.has(key)) this.hits++;
    const v = await this.lru.fetch(key, { context: make });
    if (v === undefined) throw new Error(`render of ${key} gave nothing`);
    return v as T;
  }
}
