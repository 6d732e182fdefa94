/**
 * Live updates over server-sent events. A browser watching a match holds one stream; the hub reads the
 * match's log every `pollMs` while anyone watches it (the web process is not the bot: the store is the only
 * link), renders each new batch once and writes it to every stream of that match.
 *
 * Messages: `id: <seq>` + `event: feed` + the HTML of a public feed item (one per item, the event log's seq
 * as the id, so a reconnecting browser sends `Last-Event-ID` and resumes right after the last item it got:
 * no gap, no duplicate); a bare `id: <seq>` when a batch ends with events the channel does not see (so the
 * resume point moves past them); `event: state` with the state panels after every batch (no id);
 * `event: over` when the match is over; a `: ping` comment every 15 s.
 *
 * Caps: at most `maxStreams` streams overall (then 503) and `maxPerAddress` per client address (then 429;
 * by default 1/16 of all, config `web.maxStreamsPerAddress`). A stream ends after `streamMs` (config
 * `web.streamSeconds`): the browser reconnects after its retry delay with `Last-Event-ID` and resumes where
 * it was, and is admitted again under the caps, so no address holds slots for good.
 */
import type { ServerResponse } from 'node:http';
import type { LoadedMatch } from './cache.js';
import type { Html } from './html.js';
import type { FeedItem } from './feed.js';

/** What the hub needs: a fresh load of a match and the rendering of its items after a seq and of its panels. */
export interface HubDeps {
  load(matchId: string): Promise<LoadedMatch | null>;
  render(loaded: LoadedMatch, afterSeq: number): Promise<{ items: FeedItem[]; state: Html | null }>;
  pollMs: number;
  maxStreams: number;
  maxPerAddress: number;
  /** Lifetime of one stream (ms); then the hub ends it and the browser reconnects. */
  streamMs: number;
  /** Called with a failure of a poll (logged by the caller); the poll goes on. */
  onError?: (err: unknown, matchId: string) => void;
}

interface Client {
  res: ServerResponse;
  address: string;
  /** Seq of the last event this client has been sent (or skipped past). */
  sent: number;
}

interface Watch {
  clients: Set<Client>;
  lastSeq: number;
  timer: NodeJS.Timeout | null;
  busy: boolean;
}

/** One SSE message. `data` may hold newlines (each line is sent as its own `data:` field). */
export function sseMessage(m: { id?: number; event?: string; data?: string }): string {
  let out = '';
  if (m.id !== undefined) out += `id: ${m.id}\n`;
  if (m.event) out += `event: ${m.event}\n`;
  if (m.data !== undefined) for (const line of m.data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** Why a stream was refused: too many overall (503) or from this address (429). */
export type OpenRefusal = 'too_many_streams' | 'too_many_streams_from_address';

/** The streams of every watched match (see the file comment). */
export class StreamHub {
  private readonly watches = new Map<string, Watch>();
  private readonly perAddress = new Map<string, number>();
  private total = 0;
  private readonly ping: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly d: HubDeps) {
    this.ping = setInterval(() => this.broadcastAll(': ping\n\n'), 15_000);
    this.ping.unref();
  }

  /** Open streams now, overall. */
  get open(): number {
    return this.total;
  }

  /** Whether one more stream from `address` may open. */
  admit(address: string): OpenRefusal | null {
    if (this.closed || this.total >= this.d.maxStreams) return 'too_many_streams';
    if ((this.perAddress.get(address) ?? 0) >= this.d.maxPerAddress) return 'too_many_streams_from_address';
    return null;
  }

  /**
   * Start streaming `loaded`'s match to `res` (headers already written) from after `afterSeq`: the items
   * the client missed, the panels, then every new batch. Call {@link admit} first.
   */
  async attach(loaded: LoadedMatch, res: ServerResponse, address: string, afterSeq: number): Promise<void> {
    const id = loaded.record.id;
    const client: Client = { res, address, sent: afterSeq };
    this.total++;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    const lifetime = setTimeout(() => res.end(), this.d.streamMs);
    lifetime.unref();
    res.on('close', () => {
      clearTimeout(lifetime);
      this.detach(id, client);
    });
    res.write('retry: 1000\n\n');
    let w = this.watches.get(id);
    if (!w) {
      w = { clients: new Set(), lastSeq: loaded.events.at(-1)?.seq ?? 0, timer: null, busy: false };
      this.watches.set(id, w);
    }
    w.clients.add(client);
    await this.catchUp(loaded, client);
    // A poll that finished meanwhile may have moved the watch past what this client was sent.
    if (w.lastSeq > client.sent) {
      const fresh = await this.d.load(id);
      if (fresh) await this.catchUp(fresh, client);
    }
    this.schedule(id, w);
  }

  private async catchUp(loaded: LoadedMatch, client: Client): Promise<void> {
    const { items, state } = await this.d.render(loaded, client.sent);
    this.write(client, items, loaded.events.at(-1)?.seq ?? client.sent, state, loaded.record.status === 'over');
  }

  private write(client: Client, items: readonly FeedItem[], lastSeq: number, state: Html | null, over: boolean): void {
    let out = '';
    for (const it of items)
      if (it.seq > client.sent) out += sseMessage({ id: it.seq, event: 'feed', data: it.html.value });
    if (lastSeq > client.sent && (items.length === 0 || items.at(-1)!.seq < lastSeq))
      out += sseMessage({ id: lastSeq });
    if (lastSeq > client.sent) client.sent = lastSeq;
    if (state) out += sseMessage({ event: 'state', data: state.value });
    if (over) out += sseMessage({ event: 'over', data: 'over' });
    if (out && !client.res.writableEnded) client.res.write(out);
  }

  private detach(id: string, client: Client): void {
    const w = this.watches.get(id);
    if (!w?.clients.delete(client)) return;
    this.total--;
    const n = (this.perAddress.get(client.address) ?? 1) - 1;
    if (n <= 0) this.perAddress.delete(client.address);
    else this.perAddress.set(client.address, n);
    if (w.clients.size === 0) {
      if (w.timer) clearTimeout(w.timer);
      this.watches.delete(id);
    }
  }

  private schedule(id: string, w: Watch): void {
    if (w.timer || this.closed || w.clients.size === 0) return;
    w.timer = setTimeout(() => {
      w.timer = null;
      void this.poll(id, w).finally(() => this.schedule(id, w));
    }, this.d.pollMs);
  }

  private async poll(id: string, w: Watch): Promise<void> {
    if (w.busy) return;
    w.busy = true;
    try {
      const loaded = await this.d.load(id);
      const last = loaded?.events.at(-1)?.seq ?? 0;
      if (!loaded || last <= w.lastSeq) return;
      const from = Math.min(w.lastSeq, ...[...w.clients].map((c) => c.sent));
      const { items, state } = await this.d.render(loaded, from);
      w.lastSeq = last;
      for (const c of w.clients)
        this.write(c, items, last, state, loaded.record.status === 'over' || loaded.match?.phase === 'over');
    } catch (err) {
      this.d.onError?.(err, id);
    } finally {
      w.busy = false;
    }
  }

  private broadcastAll(text: string): void {
    for (const w of this.watches.values()) for (const c of w.clients) if (!c.res.writableEnded) c.res.write(text);
  }

  /** End every open stream (browsers reconnect with Last-Event-ID after their retry delay). */
  dropAll(): void {
    for (const w of [...this.watches.values()]) for (const c of [...w.clients]) c.res.end();
  }

  /** End every stream and stop polling; no stream opens afterwards. */
  close(): void {
    this.closed = true;
    clearInterval(this.ping);
    for (const w of this.watches.values()) if (w.timer) clearTimeout(w.timer);
    this.dropAll();
  }
}
