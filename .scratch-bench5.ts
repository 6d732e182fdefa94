import seedrandom from 'seedrandom';
function bench(name: string, f: () => void) { for (let i=0;i<2000;i++) f(); const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 800) { for (let i=0;i<100;i++) f(); n+=100; } console.log(name, (1e3*(performance.now()-t0)/n).toFixed(2), 'us'); }
const g = seedrandom.tychei('3:0:world');
bench('100 draws tychei', () => { for (let i=0;i<100;i++) g(); });
const a = seedrandom.alea('3:0:world');
bench('100 draws alea', () => { for (let i=0;i<100;i++) a(); });
const c = seedrandom('3:0:world');
bench('100 draws arc4', () => { for (let i=0;i<100;i++) c(); });
