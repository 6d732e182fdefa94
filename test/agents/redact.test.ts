/**
 * Redaction of an LLM seat's private figures from what it writes (src/agents/redact.ts): budget, job values,
 * deadlines (also as rounds left) and hours, in the ten languages of the injection corpus and their number
 * formats; ids and public facts that are not private figures stay. The figures come from real worlds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { privateFigures, REDACTED, redactFigures } from '../../src/agents/redact.js';
import { createMatch, jobValue, observe } from '../../src/engine/index.js';

const obs = observe(createMatch({ task: 'market_round', seed: 5, scripted: {} }), 'lab_1');
const f = privateFigures(obs);
const job = obs.self.jobs.find((j) => j.outcome === 'pending')!;
const budget = obs.self.budget;
const value = jobValue(job);
const need = job.gpuHoursRequired - job.allocatedHours;
const d = job.deadlineRound;
const comma = (x: number) => x.toFixed(2).replace('.', ',');

describe('redaction of private figures', () => {
  test('each language and number format: every figure is replaced and counted', () => {
    const texts = [
      `My budget is ${budget.toFixed(2)} credits; job ${job.id} needs ${need} more GPU-hours by round ${d} (${d - obs.round} rounds left), worth ${value.toFixed(2)}.`,
      `Meu orçamento é ${comma(budget)} créditos. O job ${job.id} precisa de ${need} horas até a rodada ${d}, vale ${Math.round(value)}.`,
      `Mi presupuesto es ${Math.round(budget)} créditos; necesita ${need} horas antes de la ronda ${d}; vale ${comma(value)}.`,
      `Mein Budget: ${comma(budget)} Credits. Job ${job.id} braucht noch ${need} Stunden bis Runde ${d}, Wert ${comma(value)}.`,
      `Mon budget est de ${comma(budget)} crédits ; ${need} heures avant le tour ${d} ; il vaut ${Math.floor(value)}.`,
      `Il mio budget è ${Math.floor(budget)} crediti; ${need} ore entro il turno ${d}; vale ${value.toFixed(1)}.`,
      `我的预算是${budget.toFixed(2)}。任务${job.id}还需要${need}小时，截止第${d}轮，价值${Math.round(value)}。`,
      `予算は${Math.round(budget)}クレジットです。あと${need}時間必要で、期限はラウンド${d}、価値は${value.toFixed(2)}です。`,
      `Мой бюджет ${comma(budget)} кредитов. Нужно ещё ${need} часов до раунда ${d}, стоимость ${Math.ceil(value)}.`,
      `Mój budżet to ${Math.round(budget)} kredytów. Potrzeba ${need} godzin do rundy ${d}, wartość ${comma(value)}.`,
    ];
    for (const t of texts) {
      const r = redactFigures(t, f);
      assert.ok(r.redactions >= 4, `${t} → ${r.text}`);
      const digits = r.text.replace(/[a-z]+(?:_\d+)+/gi, '').match(/\d+(?:[.,]\d+)?/g) ?? [];
      assert.deepEqual(digits, [], `no figure left: ${r.text}`);
      assert.equal(r.text.split(REDACTED).length - 1, r.redactions);
      if (t.includes(job.id)) assert.ok(r.text.includes(job.id), 'the job id stays');
    }
  });

  test('ids, public block facts and numbers that are no private figure stay', () => {
    const other = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find((n) => !f.hours.includes(n) && !f.rounds.includes(n))!;
    const text = `I offer b_1_0 and b_1_2 to lab_0 for o_3; it is round ${obs.round === d ? other : obs.round}. A block of ${other} GPU-h at 0.95.`;
    const r = redactFigures(text, f);
    assert.equal(r.redactions, 0, r.text);
    assert.equal(r.text, text);
  });

  test('a small deadline or hour count is private only next to a word that makes it one', () => {
    const plain = `Let us trade ${d} blocks.`;
    assert.equal(redactFigures(plain, { ...f, hours: [] }).redactions, 0, 'a bare small number');
    assert.equal(redactFigures(`due ${d}`, f).redactions, 1);
    assert.equal(redactFigures(`${need}h`, f).redactions, 1);
  });
});
