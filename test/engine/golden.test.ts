/**
 * Golden pins of the engine (docs/RULES.md §0): the worlds `createMatch` draws and whole scripted episodes
 * must not drift under the same RULES_VERSION, since a stored match replays its inputs through today's
 * code and every figure in docs/EVALUATION.md is a function of seeds. Each pin is the sha256 of canonical
 * JSON (test/support/canonical.ts: keys sorted, arrays in order).
 *
 * A deliberate change to worlds or rules bumps RULES_VERSION (src/engine/index.ts), re-pins these hashes
 * and notes the change in docs/RULES.md's history; an accidental one is a bug. To print the new table:
 *   UPDATE_GOLDEN=1 npm test -- test/engine/golden
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAction, closeRound, createMatch, observe, TASK_NAMES } from '../../src/engine/index.js';
import type { MatchState, RoundReport, RulesVersion, TaskName } from '../../src/engine/index.js';
import { defaultOpponents } from '../../src/engine/gym.js';
import { canonicalHash } from '../support/canonical.js';
import { roundScript } from './golden-script.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

const HOW_TO_FIX =
  'a deliberate change to worlds or rules bumps RULES_VERSION (src/engine/index.ts), re-pins these hashes ' +
  '(run with UPDATE_GOLDEN=1 to print the new ones: UPDATE_GOLDEN=1 npm test -- test/engine/golden) and notes it ' +
  "in docs/RULES.md's history; an accidental one is a bug";

/** Compare a computed table with its pins; in UPDATE_GOLDEN mode print it as source to paste instead. */
function checkPins(name: string, actual: Record<string, string>, pinned: Readonly<Record<string, string>>): void {
  if (UPDATE) {
    const rows = Object.entries(actual).map(([k, v]) => `  '${k}': '${v}',`);
    console.log(`const ${name}: Readonly<Record<string, string>> = {\n${rows.join('\n')}\n};`);
    return;
  }
  const changed = Object.keys({ ...pinned, ...actual }).filter((k) => actual[k] !== pinned[k]);
  const list =
    changed.length > 4 ? `${changed.slice(0, 4).join(', ')} and ${changed.length - 4} more` : changed.join(', ');
  assert.deepEqual(
    actual,
    pinned,
    `${name}: ${changed.length} of ${Object.keys(pinned).length} pinned hashes changed (${list}): ${HOW_TO_FIX}.`,
  );
}

const WORLD_SEEDS = [0, 1, 7, 42, 123456];

/** One episode: lab_0 plays test/engine/golden-script.ts, the others the gym's default archetypes (§8). */
function episode(
  task: TaskName,
  seed: number,
  holdout: boolean,
  rules: RulesVersion,
): { trace: unknown[]; final: MatchState } {
  let s = createMatch({ task, seed, holdout, rules, scripted: defaultOpponents(task, seed, 'lab_0') });
  const trace: unknown[] = [];
  while (!s.over) {
    for (const action of roundScript(observe(s, 'lab_0'))) {
      const round = s.round;
      const out = applyAction(s, 'lab_0', action);
      trace.push({ round, action, result: out.result });
      s = out.state;
      if (s.over) break;
    }
    if (s.over) break;
    const out = closeRound(s);
    trace.push({ report: out.report });
    s = out.state;
  }
  return { trace, final: s };
}

const EPISODES: readonly { task: TaskName; seed: number; holdout: boolean }[] = TASK_NAMES.flatMap((task) => [
  ...[0, 7, 42].map((seed) => ({ task, seed, holdout: false })),
  { task, seed: 1, holdout: true },
]);

// Pinned under RULES_VERSION 3 (UPDATE_GOLDEN=1 prints these tables).
const WORLDS: Readonly<Record<string, string>> = {
  'single_trade/0/holdout=false': 'fa4fe348b767751af9ab813a7bf0a7c00848d4dd55aca7c7d087f2def93ff648',
  'single_trade/0/holdout=true': '6466b66f4a63df6c649337d6b4cd65862c24a0f6745db9a4fe7bab770db33b87',
  'single_trade/1/holdout=false': '16111978d98b6a01865e577170786269b857a59f18fe3a04fdf2af198a96509f',
  'single_trade/1/holdout=true': 'f618cb3cded88aecdf6cf3956b284cfeba2566621c4b6644c3245a51d602dcfa',
  'single_trade/7/holdout=false': 'b41a9042914804e63d19544705b0b44c03d675810a34fd670a14914bd70f9859',
  'single_trade/7/holdout=true': '80d031957699165059b9432e08970d62a117e2dd42bc0e272be3a6cefb1e1c2d',
  'single_trade/42/holdout=false': '4c5a99d5f45dc99848c9c4e2759c15d5c8b41e14c77fca1b89f50466934f0aa6',
  'single_trade/42/holdout=true': '1bc48f719b9d537821c3477e5a82798e27090dddd90534cb7f4d04e72621a3ba',
  'single_trade/123456/holdout=false': '208600f9f1fa8485324a9db851b80c0ce7a3fd25768abd9f6a8e410cd06d1ba7',
  'single_trade/123456/holdout=true': 'e2e8b6eefb2258121a33be975679bd213dcb8fd617223a7080f4ed3e2b528051',
  'market_round/0/holdout=false': '053fdc3d9a13407665fabffa8f358bd2a6d3bf7e7a7d105fae961f0154c2cb38',
  'market_round/0/holdout=true': 'ed682b503248dd4ee218adb2a0b7225e81c81c9490e6846f13de806ce5ea57ae',
  'market_round/1/holdout=false': 'c0708166933aa95bba7e4f7f4668231e5eb8218a6df871418c456c640ac83264',
  'market_round/1/holdout=true': 'eb71dcae1084c2897b61764c6c4b6daadeaecda93c269470d23b77f22613a71a',
  'market_round/7/holdout=false': '7107d8fe4e20323b9604832bd9c2149feb68b8c028694866448969245db444c1',
  'market_round/7/holdout=true': '00601ed7fd2ecccbc3e98ea725c4d16f765a8c2bbabe06fac068a2eb899d82b0',
  'market_round/42/holdout=false': '364c7af04b130599e4feb247a47f0481c3b07c76af294aa5c3c16c10ef43154b',
  'market_round/42/holdout=true': '477d0d290d5182126fe996a8d5f8cd1d8ea1d148ef5dcd24df2e41708030147e',
  'market_round/123456/holdout=false': '262942c7269f7e00599123fc965e4a84e2c3a18ccab8abd92452e3b2da6ec6cc',
  'market_round/123456/holdout=true': '9ca370c431750f77cb7db74d671d09feb555e89e1601189c90b04e93fe8bc492',
  'coalition_market/0/holdout=false': '708785fb536e928b4d3f8a310578c2fd5f58e6df48d4d166842f6ac1a787984d',
  'coalition_market/0/holdout=true': '4dea5e73c72927abebd8ce837704fd4c9b1932be57554ab9496a4a97c01b24e3',
  'coalition_market/1/holdout=false': 'e99f292fad3e8bf51ec40712008675755c0ed6eeb2255c793cab87c7236dbb4c',
  'coalition_market/1/holdout=true': 'a33c16196724685f2889cc99ded28fe0eaf3f84ef794f36c33682ff44c147b12',
  'coalition_market/7/holdout=false': 'b11aaffa42248b9054dd0d5dcc682db13eb726fead822c6b3ebf50bcd1e3e292',
  'coalition_market/7/holdout=true': 'a96354cc1fbffee53d7991672098baec9c8e815bd15bc4d82c805be97c4895d8',
  'coalition_market/42/holdout=false': 'f2740018f06751d66da0d0ebc6ed51f5a5d8e140d8ed87f5d7e4f4faa3a40648',
  'coalition_market/42/holdout=true': '4368a87460ba3d816119525e4711c235d1d72ecf124a66566c5a9cca677144bc',
  'coalition_market/123456/holdout=false': '70cd11eec243be8e8eed19f9a017d33e4f2609333427afbc66a16a52347a4202',
  'coalition_market/123456/holdout=true': '0838cdfc20c6918e8d2cf110d4a1bf67800fe254034f32914f56d69f6294a302',
};
const EPISODE_HASHES: Readonly<Record<string, string>> = {
  'single_trade/0/holdout=false': 'b9bbf3b62533ed21290f98765d27c2c76dc3b50d733caa1a73b62eb0460865cc',
  'single_trade/7/holdout=false': '18a7932aa6a443eaa8ac61b53e12d6f3387d36775b11cd8a52a430e9d365b191',
  'single_trade/42/holdout=false': '5c8517fe8331faebd8d5f905d81c32b965178aa436dc309188ec23436f8e47ba',
  'single_trade/1/holdout=true': '573a79193b64509c41b39a1e74fac24fa4c9d71f56966978f6daa0230dc68744',
  'market_round/0/holdout=false': 'd487e5bed2bb2a403f560aaffbb9a1d35e016d7f6807bfa6ed62c740c4b9258b',
  'market_round/7/holdout=false': '8cbd787c315bb057f8398be29c3a5153e8dc91c8b18dfffc4e25f6d327a2c6b1',
  'market_round/42/holdout=false': '3c08c75cfc1bca37888a7c87fc685a45048e98e357bf9c592be16a1bc37da044',
  'market_round/1/holdout=true': '2ce8c0fd0a94fd963705542a176f962a8dc562876aedcfe4ed2be85e0060b35d',
  'coalition_market/0/holdout=false': 'c53546a238dd5186622b730eeb8441c06e53f5ad022144386952fa8d944fa8d9',
  'coalition_market/7/holdout=false': 'fa492674bfd17b65a424e4c5938ea0cb994307d0090a2bad76c9a1cde7898d7b',
  'coalition_market/42/holdout=false': '16f98fde2b56c96f82b7f302096c5dbcdf9bf2a5f3b37e583638484f97a3b681',
  'coalition_market/1/holdout=true': '2931d2afd4d3d2c6ae23fad5463a40dd8f5af4437d487345ddf86ab0e2f50ded',
};

/** Rules v4 (new matches): the same worlds for integer seeds (v4 adds only config.rules and empty pitch facts to the state) and v4 episodes. */
const WORLDS_V4: Readonly<Record<string, string>> = {
  'single_trade/0/holdout=false': 'd570251b1c60b30115a275549ad187ba65f573cfb81507e37afa1a57214f67de',
  'single_trade/0/holdout=true': '839fc3a5cb2366b078bd1fd9898654c0b817d1bfb6a4af03ea98986e77c893f2',
  'single_trade/1/holdout=false': 'd5c5ad78943156fe0c1cfdcfd7a15b354f1246626de5715c56fda2e005275c38',
  'single_trade/1/holdout=true': '871879052fe9e5409ef39084b155c92521117f5d4660b06351e244a8ed2e2ac1',
  'single_trade/7/holdout=false': 'd18a315b17befdf8b1a3a8a3f9ba3ea674812e59f33273d3e1e6fbbac5001886',
  'single_trade/7/holdout=true': 'b88d75d183dd92218be667b0e951c8d125d992cb523dff2f234d11283cdd82ed',
  'single_trade/42/holdout=false': '0459d996f57e0f8eed52db84ce4465cc0b2f2e0d721f61ba0858a39e3e18feca',
  'single_trade/42/holdout=true': 'eadf613b9a14f9fd6242d8a022440151789d3b81f66db774871abeed3e81c5ff',
  'single_trade/123456/holdout=false': 'cfb3d14d41f7149ab10fa819e16a74cb6a5c64abd36efeaa648e879f26ecfaf7',
  'single_trade/123456/holdout=true': 'dee6fe09a127e695345dab0222d6f88fca1a5b326ec33a3448a3b6ad055c8f6a',
  'market_round/0/holdout=false': '8e5357be48c954b11bc21eab92fe44e602800f3f5f2894dd38611120b633967d',
  'market_round/0/holdout=true': '107874ff4ccc8163122811a57469dc57d9096c6222c14248c4be76a175274ec2',
  'market_round/1/holdout=false': '5dea24e2bff4f3cd77263b4e319891aa43d1eea064fb30b1980f0f75e47fb40f',
  'market_round/1/holdout=true': 'f1d8381655ea7c0f9ac9563ab6020e3aff5040b14437af3941edbd64c05d714e',
  'market_round/7/holdout=false': '28d469ca1aa546228eb4157b293534b4c8a3ee0495020f7b3a28cd9320fcc351',
  'market_round/7/holdout=true': 'd518305d4db3f315690f325de78fbab9dd547c96cb8f66ef75e7ea4f2b2f69be',
  'market_round/42/holdout=false': '772faa703c551b6106edb4713417836eec1bd06e5d1a039d9096ef3e92489382',
  'market_round/42/holdout=true': 'a8efe13a68c189676ae02c3bff05ad4a97436d68c3fe59c220dbc6bb3a6cc311',
  'market_round/123456/holdout=false': '7176f83a63278baa187a31d68b751e400d315f19ede3c39efeed518f801da0bf',
  'market_round/123456/holdout=true': 'e4e1a5e29ff914799e6347b914251930f01de843290b3d221099c118d9d4f8ba',
  'coalition_market/0/holdout=false': '5f1ddc1ab77bd3ec550e4e9100ffe48c5accfac6ea0175cea720b6c6b5ee47b8',
  'coalition_market/0/holdout=true': '6bc48e641dc7e4a8a846133c0c0804070fd2918c7b5552fb2abe89b14e013bb4',
  'coalition_market/1/holdout=false': '9fc2263301788b48c0019f3009002488ce3ebfe7ab1df2eb827c31b248b6091c',
  'coalition_market/1/holdout=true': '8fec5d90941a7f57310685034bbd93c92c9d6a9b9b1567646176f1d1ae8466d4',
  'coalition_market/7/holdout=false': '8f0d9cbb3428b9cfc067e5690b8f06444e2e6932fc7cb7583c646368c73b88ee',
  'coalition_market/7/holdout=true': 'deba6fa84141fb20e845e7a4fab6ecdd53a3191bdbcdfc09c9f357c8cb3a03af',
  'coalition_market/42/holdout=false': 'bcbbb3d443b22096ee2b40df8133c62bdeb76341737b292ae247894e2d5af073',
  'coalition_market/42/holdout=true': 'e7fdb3df1c214ba3daaeea0e386dc20cb84aaa902c8fac19c5cb88b4cb62d405',
  'coalition_market/123456/holdout=false': '6f8630fc9de46b2c6cea15db2a43fe1f1b93ba3fbcd80ace03d90dd2685ef152',
  'coalition_market/123456/holdout=true': '516dab5cb3a1596284390f19313ed2cdd366ab2418fe1e5706c70a5c2295125a',
};
const EPISODE_HASHES_V4: Readonly<Record<string, string>> = {
  'single_trade/0/holdout=false': '6e16696a45cebbf559752067e48e510ef1fb74efd5ba533385ef8a853ef60278',
  'single_trade/7/holdout=false': '72eb933b7901f90974a79c6781386211166c1a260c59cc3be6a0721ac36acee2',
  'single_trade/42/holdout=false': '9d975676199804f394e94514c7a7f7fa4bc4db7bdff62c24a4599b6653e5b0a2',
  'single_trade/1/holdout=true': '29a97853036c8a91192847f83cd8b7756ed50a0eee6276e0f9101470b9d96473',
  'market_round/0/holdout=false': 'a59fbde07449d37d2ab2cf2c22873c5badfc205d6e14be3804ad36c35c6425a3',
  'market_round/7/holdout=false': '48531af7e2f98a592deaad664299c565bedf831c8a3af8ea2257d582a33f401c',
  'market_round/42/holdout=false': '5966a5250f83a0d239996286b930b65fd40af84f60710a50d5df42b39b4cbf1e',
  'market_round/1/holdout=true': 'a7638a05fd1b205f0ee051a65c3533cf1275feeb4ab206f52a19fb467c260d66',
  'coalition_market/0/holdout=false': '9be31561d558c8e093b8db575f967a9a2a74b7174641e350f980794ba5fad5fb',
  'coalition_market/7/holdout=false': '87b4a33d05d254fa13fdc954db3d28197f9ae965c2a7ed97c66d36bbe1774f45',
  'coalition_market/42/holdout=false': '0de3b64c1c52e9cf07615767217b57fe4e2b05ee46e5c3af773318c87807d89d',
  'coalition_market/1/holdout=true': '02bb1767fd86514687355d19286961d088b7d87c500e418285e8f04096ed4717',
};

/** The pins of each rules version the engine plays: v3 only replays stored matches, and must not drift either. */
const PINS: readonly {
  rules: RulesVersion;
  worlds: Readonly<Record<string, string>>;
  episodes: Readonly<Record<string, string>>;
}[] = [
  { rules: 3, worlds: WORLDS, episodes: EPISODE_HASHES },
  { rules: 4, worlds: WORLDS_V4, episodes: EPISODE_HASHES_V4 },
];

describe('golden: pinned worlds and episodes', () => {
  for (const { rules, worlds, episodes } of PINS) {
    test(`rules v${rules}: createMatch of every task, seeds ${WORLD_SEEDS.join(', ')}, holdout off and on`, () => {
      const actual: Record<string, string> = {};
      for (const task of TASK_NAMES) {
        for (const seed of WORLD_SEEDS)
          for (const holdout of [false, true])
            actual[`${task}/${seed}/holdout=${holdout}`] = canonicalHash(createMatch({ task, seed, holdout, rules }));
      }
      checkPins(`WORLDS${rules === 3 ? '' : `_V${rules}`}`, actual, worlds);
    });

    test(`rules v${rules}: whole scripted episodes: every step result, every round report and the final state`, () => {
      const actual: Record<string, string> = {};
      const seen = new Set<string>();
      for (const { task, seed, holdout } of EPISODES) {
        const ep = episode(task, seed, holdout, rules);
        actual[`${task}/${seed}/holdout=${holdout}`] = canonicalHash(ep);
        for (const t of ep.trace as { result?: { code: string }; report?: RoundReport }[]) {
          if (t.result) seen.add(t.result.code);
          if (!t.report) continue;
          if (t.report.trades.length > 0) seen.add('trade');
          if (t.report.judge?.winner) seen.add('judge_winner');
          if (t.report.shocks.length > 0) seen.add('shock');
          for (const a of t.report.scriptedActions) seen.add(a.code);
        }
      }
      checkPins(`EPISODE_HASHES${rules === 3 ? '' : `_V${rules}`}`, actual, episodes);
      // The pins are worth something only if the episodes reach these parts of the rules.
      const wanted = [
        'trade',
        'judge_winner',
        'shock',
        'offer_accepted',
        'counter_offer_created',
        'coalition_proposed',
        'coalition_activated',
        'bid_placed',
        'job_allocated',
        'capacity_released',
        'malformed_action',
      ];
      assert.deepEqual(
        wanted.filter((c) => !seen.has(c)),
        [],
        'parts of the rules the golden episodes no longer reach',
      );
    });
  }
});
