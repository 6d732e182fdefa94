import { bench } from './src/eval/bench';
const t = (process.argv[2] ?? 'market_round') as 'market_round';
console.log(bench((process.argv[3] ?? 'rule_based_expert') as 'rule_based_expert', t, 1500, 100));
