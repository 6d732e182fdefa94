import { playEpisodes } from './src/eval/bench.js';
const task = (process.argv[2] ?? 'market_round') as any;
const n = Number(process.argv[3] ?? 1000);
playEpisodes('random_validish', task, 600, 1_000_000);
const c0 = process.cpuUsage();
const steps = playEpisodes('random_validish', task, n, 0);
const c = process.cpuUsage(c0);
console.log(task, steps, Math.round(steps / ((c.user + c.system) / 1e6)), 'steps/cpu-s');
