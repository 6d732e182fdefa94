// Preloaded with `node --import` by tests: records which npm packages the process loaded and writes them,
// one per line, to $ARENA_PACKAGES_OUT when it exits.
import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';

const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) seen.add(m[1]);
});
port1.unref();
register(
  `data:text/javascript,${encodeURIComponent('let port; export function initialize(d) { port = d.port; } export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }')}`,
  { data: { port: port2 }, transferList: [port2] },
);
process.on('exit', () => writeFileSync(process.env.ARENA_PACKAGES_OUT, [...seen].sort().join('\n')));
