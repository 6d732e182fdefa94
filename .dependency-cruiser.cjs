/**
 * The layers of src/ and what each may import (`npm run lint:layers`; CI fails on any violation or cycle).
 * docs/ARCHITECTURE.md draws the same table. A folder not named here may import nothing of ours.
 *
 * Bottom to top: errors; engine, llm, chat → events → agents → store → voting/ballots → match → present →
 * voting → host → analytics → eval → commands → adapters → app → cli.
 */
/** Layers every layer may import: `errors` holds only the CodedError base class (docs/ARCHITECTURE.md#errors). */
const EVERYWHERE = ['errors'];
const LAYERS = {
  errors: [],
  engine: [],
  llm: [],
  chat: [],
  agents: ['engine', 'llm', 'events'],
  events: ['engine'],
  store: ['engine', 'events'],
  'voting/ballots': ['engine', 'events', 'store'],
  match: ['engine', 'events', 'store', 'chat', 'agents', 'voting/ballots'],
  present: ['engine', 'events', 'store', 'chat', 'match', 'voting/ballots'],
  voting: ['engine', 'events', 'store', 'chat', 'match', 'present', 'voting/ballots'],
  host: ['engine', 'llm', 'agents', 'events', 'store', 'chat', 'match', 'present', 'voting', 'voting/ballots'],
  analytics: ['engine', 'events', 'store', 'chat', 'match', 'present', 'voting/ballots'],
  eval: ['engine', 'llm', 'agents', 'events', 'chat', 'match', 'analytics'],
  commands: [
    'engine',
    'events',
    'store',
    'chat',
    'match',
    'present',
    'voting',
    'voting/ballots',
    'host',
    'analytics',
    'web/links',
  ],
  'adapters/console': [
    'engine',
    'events',
    'store',
    'chat',
    'match',
    'present',
    'host',
    'analytics',
    'commands',
    'agents',
  ],
  'adapters/discord': ['engine', 'chat', 'present', 'analytics', 'commands'],
  'adapters/slack': ['engine', 'chat', 'present', 'analytics', 'commands'],
  'adapters/http': ['engine', 'eval'],
  'web/links': ['store'],
  web: ['engine', 'events', 'store', 'chat', 'match', 'present', 'voting', 'voting/ballots', 'analytics', 'web/links'],
  app: ['*'],
  cli: ['*'],
};

const names = Object.keys(LAYERS).sort((a, b) => b.length - a.length); // most specific first
const esc = (s) => s.replace(/[/]/g, '\\/');
/** Path regex of a layer's own files, excluding its more specific sub-layers. */
const own = (layer) => {
  const subs = names.filter((n) => n !== layer && n.startsWith(`${layer}/`));
  return { path: `^src/${esc(layer)}/`, ...(subs.length ? { pathNot: subs.map((s) => `^src/${esc(s)}/`) } : {}) };
};
const layerRules = Object.entries(LAYERS)
  .filter(([, allowed]) => !allowed.includes('*'))
  .map(([layer, allowed]) => ({
    name: `layer-${layer.replace('/', '-')}`,
    comment: `src/${layer} may import only: ${allowed.length ? allowed.join(', ') : 'nothing of ours'} (and itself, and ${EVERYWHERE.join(', ')}).`,
    severity: 'error',
    from: own(layer),
    to: { path: '^src/', pathNot: [layer, ...allowed, ...EVERYWHERE].map((l) => `^src/${esc(l)}/`) },
  }));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'cli-is-a-leaf',
      comment: 'src/cli holds entry points: nothing outside it imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'adapters-are-siblings',
      comment: 'A platform adapter never imports another one.',
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/' },
      to: { path: '^src/adapters/', pathNot: '^src/adapters/$1/' },
    },
    {
      name: 'no-unlisted-folder',
      comment: 'Every folder of src/ is a declared layer (add it to LAYERS with what it may import).',
      severity: 'error',
      from: { path: '^src/', pathNot: names.map((n) => `^src/${esc(n)}/`) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
