function bench(name: string, f: () => unknown) { for (let i=0;i<5000;i++) f(); const t0 = performance.now(); let n = 0; let x: unknown; while (performance.now() - t0 < 400) { for (let i=0;i<100;i++) x = f(); n+=100; } console.log(name.padEnd(40), (1e3*(performance.now()-t0)/n).toFixed(3), 'us', !!x); }
const lit: Record<string, {a:number}> = {}; for (let i=0;i<20;i++) lit['b_'+i+'_0'] = {a:i};
bench('spread lit map 20', () => ({ ...lit }));
const sp = { ...lit }; sp['new_1'] = {a:1};
bench('spread (spread+added) map', () => ({ ...sp }));
bench('spread + add key', () => { const m = { ...lit }; m['x_1'] = {a:1}; return m; });
bench('assign + add key', () => { const m = Object.assign({}, lit); m['x_1'] = {a:1}; return m; });
bench('for-in copy + add', () => { const m: Record<string, {a:number}> = {}; for (const k in lit) m[k] = lit[k]!; m['x_1'] = {a:1}; return m; });
const mp = new Map(Object.entries(lit));
bench('Map copy + set', () => { const m = new Map(mp); m.set('x', {a:1}); return m; });
bench('for-in copy 20', () => { const m: Record<string, {a:number}> = {}; for (const k in lit) m[k] = lit[k]!; return m; });
const big: Record<string, {a:number}> = {}; for (let i=0;i<60;i++) big['o_'+i] = {a:i};
bench('spread 60', () => ({ ...big }));
bench('spread 60 + add', () => { const m = { ...big }; m['o_99'] = {a:1}; return m; });
bench('assign 60 + add', () => { const m = Object.assign({}, big); m['o_99'] = {a:1}; return m; });
