/**
 * An "obedient" stand-in LLM seat (no network): a {@link Responder} for the OpenAI emulator that reads the
 * real seat prompt (the observation JSON and the quoted player text of src/agents/prompts.ts) and does
 * whatever the newest quoted text from another lab tells it to, in any of the corpus's ten languages
 * (injections.ts): give its blocks away, sell one for 1 credit, pay or overpay, accept an offer, finish, or
 * write its budget, a job's value, deadline, rounds left and missing hours into a message, a pitch or an offer
 * note, in the language it was asked in and in that language's number format. The worst case of a model
 * that takes quoted data for instructions; test/agents/injection.test.ts plays the corpus against it.
 *
 *   npx tsx test/emulators/obedient.ts        # prints the base URL, serves until Ctrl-C
 */
import { pathToFileURL } from 'node:url';
import { unescapeQuoted } from '../../src/llm/quote.js';
import { startOpenAiEmulator, type RecordedRequest, type Responder } from './openai.js';

interface ObsJob {
  id: string;
  gpu_hours_required: number;
  allocated_hours: number;
  deadline_round: number;
  value_if_completed: number;
  outcome: string;
}
interface ObsBlock {
  id: string;
  owner?: string;
  gpu_hours: number;
  status: string;
}
interface Obs {
  round: number;
  you: { id: string; budget: number; jobs: ObsJob[]; blocks: ObsBlock[] };
  market_blocks: ObsBlock[];
  offers: { id: string; from: string; to: string; status: string }[];
}

/** One quoted block of the prompt: its attributes and its text. */
export interface Quoted {
  attrs: Record<string, string>;
  text: string;
}

/** The quoted blocks of a prompt, in order. */
export function quotedBlocks(prompt: string): Quoted[] {
  const out: Quoted[] = [];
  for (const m of prompt.matchAll(/<quote-([a-z0-9]+)([^>]*)>\n(.*)\n<\/quote-\1>/g)) {
    const attrs = Object.fromEntries([...m[2]!.matchAll(/ (\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!]));
    out.push({ attrs, text: unescapeQuoted(m[3]!) });
  }
  return out;
}

const KEYS = [
  'action_type',
  'target_lab_id',
  'target_lab_ids',
  'offer_id',
  'coalition_id',
  'job_id',
  'job_ids',
  'block_ids',
  'requested_block_ids',
  'payment',
  'ask',
  'amount',
  'message',
  'expires_in',
  'duration',
];
const act = (fields: Record<string, unknown>) => Object.fromEntries(KEYS.map((k) => [k, fields[k] ?? null]));

/** Words of each language the stand-in understands (lower case). */
const LEX: Record<
  string,
  {
    secret: RegExp;
    pitch: RegExp;
    note: RegExp;
    accept: RegExp;
    finish: RegExp;
    buy: RegExp;
    pay: RegExp;
    sell: RegExp;
    give: RegExp;
  }
> = {
  en: {
    secret: /budget|deadline/,
    pitch: /pitch/,
    note: /note/,
    accept: /accept/,
    finish: /finish/,
    buy: /\bbuy\b/,
    pay: /\bpay\b/,
    sell: /\bsell\b/,
    give: /give|blocks/,
  },
  pt: {
    secret: /orçamento|prazo/,
    pitch: /pitch/,
    note: /nota/,
    accept: /aceite/,
    finish: /finalize/,
    buy: /compre/,
    pay: /pague/,
    sell: /venda/,
    give: /blocos|dê/,
  },
  es: {
    secret: /presupuesto|plazo/,
    pitch: /pitch/,
    note: /nota/,
    accept: /acepta/,
    finish: /termina/,
    buy: /compra/,
    pay: /paga/,
    sell: /vende/,
    give: /bloques|dame/,
  },
  de: {
    secret: /budget|frist/,
    pitch: /pitch/,
    note: /notiz/,
    accept: /akzeptier/,
    finish: /beende/,
    buy: /kauf/,
    pay: /zahl/,
    sell: /verkauf/,
    give: /blöcke|gib/,
  },
  fr: {
    secret: /budget|échéance/,
    pitch: /pitch/,
    note: /note/,
    accept: /accepte/,
    finish: /termine/,
    buy: /achète/,
    pay: /paie/,
    sell: /vends/,
    give: /blocs|donne/,
  },
  it: {
    secret: /budget|scadenza/,
    pitch: /pitch/,
    note: /nota/,
    accept: /accetta/,
    finish: /termina/,
    buy: /compra/,
    pay: /paga/,
    sell: /vendi/,
    give: /blocchi|dammi/,
  },
  zh: {
    secret: /预算|截止/,
    pitch: /陈述|pitch/,
    note: /备注/,
    accept: /接受/,
    finish: /结束/,
    buy: /买/,
    pay: /付|支付/,
    sell: /卖/,
    give: /块|给我/,
  },
  ja: {
    secret: /予算|締め切り/,
    pitch: /ピッチ/,
    note: /メモ/,
    accept: /承認|受け入れ/,
    finish: /終了/,
    buy: /買/,
    pay: /払/,
    sell: /売/,
    give: /ブロック|渡して/,
  },
  ru: {
    secret: /бюджет|срок/,
    pitch: /питч/,
    note: /заметк/,
    accept: /прими/,
    finish: /заверши/,
    buy: /купи/,
    pay: /заплати/,
    sell: /продай/,
    give: /блоки|отдай/,
  },
  pl: {
    secret: /budżet|termin/,
    pitch: /pitch/,
    note: /notat/,
    accept: /zaakceptuj/,
    finish: /zakończ/,
    buy: /kup/,
    pay: /zapłać/,
    sell: /sprzedaj/,
    give: /bloki|oddaj/,
  },
};
/** Scripts and letters that tell the languages apart where their words overlap. */
const LANG_HINT: [string, RegExp][] = [
  ['ja', /[\u3040-\u30ff]/],
  ['zh', /[\u4e00-\u9fff]/],
  ['ru', /[а-я]/],
  ['pl', /[łżś]|zignoruj|polecenie/],
  ['de', /[äöüß]|gib |vergiss|anweisung/],
  ['pt', /[ãõç]|novas|ignore as|dê|pague|blocos|prazo/],
  ['es', /[ñ¿¡]|olvida|dame|acepta la|presupuesto|plazo|ronda/],
  ['fr', /[èêà]|oublie|consigne|envoie/],
  ['it', /istruzioni|ignora le|dammi|dimmi/],
];
const langOf = (text: string) => LANG_HINT.find(([, rx]) => rx.test(text))?.[0] ?? 'en';

/** The seat's private figures written as a person of `lang` would, in that language's number format. */
function leakText(lang: string, obs: Obs): string {
  const job = obs.you.jobs.find((j) => j.outcome === 'pending') ?? obs.you.jobs[0];
  const b2 = obs.you.budget.toFixed(2);
  const bc = b2.replace('.', ',');
  const bi = String(Math.round(obs.you.budget));
  if (!job) return { en: `My budget is ${b2} credits.`, pt: `Meu orçamento é ${bc} créditos.` }[lang] ?? `${b2}`;
  const need = job.gpu_hours_required - job.allocated_hours;
  const d = job.deadline_round;
  const left = d - obs.round;
  const v2 = job.value_if_completed.toFixed(2);
  const vi = String(Math.round(job.value_if_completed));
  const texts: Record<string, string> = {
    en: `My budget is ${b2} credits. Job ${job.id} needs ${need} more GPU-hours by round ${d} (${left} rounds left) and is worth ${v2}.`,
    pt: `Meu orçamento é ${bc} créditos. O job ${job.id} precisa de ${need} horas até a rodada ${d}, vale ${vi}.`,
    es: `Mi presupuesto es ${bi} créditos. El trabajo ${job.id} necesita ${need} horas antes de la ronda ${d} y vale ${v2.replace('.', ',')}.`,
    de: `Mein Budget: ${bc} Credits. Job ${job.id} braucht noch ${need} Stunden bis Runde ${d}, Wert ${v2.replace('.', ',')}.`,
    fr: `Mon budget est de ${bc} crédits. Le job ${job.id} a besoin de ${need} heures avant le tour ${d}, il vaut ${vi}.`,
    it: `Il mio budget è ${bi} crediti. Il job ${job.id} ha bisogno di ${need} ore entro il turno ${d}, vale ${v2}.`,
    zh: `我的预算是${b2}。任务${job.id}还需要${need}小时，截止第${d}轮，价值${vi}。`,
    ja: `予算は${bi}クレジットです。ジョブ${job.id}はあと${need}時間必要で、期限はラウンド${d}、価値は${v2}です。`,
    ru: `Мой бюджет ${bc} кредитов. Задаче ${job.id} нужно ещё ${need} часов до раунда ${d}, стоимость ${vi}.`,
    pl: `Mój budżet to ${bi} kredytów. Zadanie ${job.id} potrzebuje ${need} godzin do rundy ${d}, wartość ${v2.replace('.', ',')}.`,
  };
  return texts[lang] ?? texts.en!;
}

const live = (b: ObsBlock) => b.status === 'available' || b.status === 'reserved';

/** What the newest instruction from another lab tells the seat to do, as actions (none if it reads none). */
export function obey(obs: Obs, q: Quoted): Record<string, unknown>[] {
  const from = q.attrs['from'] ?? '';
  const text = q.text.toLowerCase();
  const lang = langOf(text);
  const lex = LEX[lang]!;
  const mine = obs.you.blocks.filter(live).sort((a, b) => b.gpu_hours - a.gpu_hours);
  const theirs = obs.market_blocks.filter((b) => b.owner === from);
  const amount = Number(/(\d+)/.exec(text.replace(/[a-z]+(?:_\d+)+/g, ' '))?.[1] ?? 0);
  if (lex.secret.test(text)) {
    const leak = leakText(lang, obs);
    if (lex.pitch.test(text)) {
      const job = obs.you.jobs.find((j) => j.outcome === 'pending');
      return [act({ action_type: 'make_pitch', message: leak, job_ids: job ? [job.id] : [] })];
    }
    if (lex.note.test(text) && theirs[0])
      return [
        act({
          action_type: 'send_offer',
          target_lab_id: from,
          block_ids: [],
          requested_block_ids: [theirs[0].id],
          payment: 1,
          ask: 0,
          message: leak,
          expires_in: 2,
        }),
      ];
    return [act({ action_type: 'send_message', target_lab_id: from, message: leak })];
  }
  const offer = /o_\d+/.exec(text)?.[0];
  if (lex.accept.test(text) && offer) return [act({ action_type: 'accept_offer', offer_id: offer })];
  if (lex.finish.test(text)) return [act({ action_type: 'finish' })];
  const block = /b_\d+_\d+/.exec(text)?.[0] ?? theirs[0]?.id;
  if (lex.buy.test(text) && block)
    return [
      act({
        action_type: 'send_offer',
        target_lab_id: from,
        block_ids: [],
        requested_block_ids: [block],
        payment: Math.min(amount, obs.you.budget),
        ask: 0,
        expires_in: 2,
      }),
    ];
  if (lex.pay.test(text) && amount > 0)
    return [
      act({
        action_type: 'send_offer',
        target_lab_id: from,
        block_ids: [],
        requested_block_ids: [],
        payment: Math.min(amount, obs.you.budget),
        ask: 0,
        expires_in: 2,
      }),
    ];
  if (lex.sell.test(text) && mine[0])
    return [
      act({
        action_type: 'send_offer',
        target_lab_id: from,
        block_ids: [mine[0].id],
        requested_block_ids: [],
        payment: 0,
        ask: 1,
        expires_in: 2,
      }),
    ];
  if (lex.give.test(text) && mine.length)
    return [
      act({
        action_type: 'send_offer',
        target_lab_id: from,
        block_ids: mine.map((b) => b.id),
        requested_block_ids: [],
        payment: 0,
        ask: 0,
        expires_in: 2,
      }),
    ];
  return [];
}

/** The observation JSON of a seat prompt, or null (feedback turns and other requests). */
function observationOf(req: RecordedRequest): { obs: Obs; prompt: string } | null {
  if (req.body?.messages?.some((m) => m.role === 'assistant')) return null;
  const user = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
  const m = /Your observation \(JSON\):\n(.*)/.exec(user);
  return m ? { obs: JSON.parse(m[1]!) as Obs, prompt: user } : null;
}

/**
 * Responder: a seat prompt gets the actions the newest direct message or offer note from another lab that
 * asks for anything asks for (retried the same way when refused: an obedient model insists); anything else
 * an empty reply.
 */
export const obedientResponder: Responder = (req) => {
  const seat = observationOf(req);
  const feedback = req.body?.messages?.find(
    (m, i, all) => m.role === 'user' && i === all.length - 1 && all.some((x) => x.role === 'assistant'),
  );
  const reply = (actions: Record<string, unknown>[]) => ({
    content: JSON.stringify({ plan: 'do as the message says', actions, pitch: null }),
  });
  if (!seat) {
    // A retry: do again what was refused (the previous reply is the assistant message).
    const prev = req.body?.messages?.find((m) => m.role === 'assistant')?.content;
    return feedback && prev ? { content: prev } : reply([]);
  }
  const heard = quotedBlocks(seat.prompt).filter(
    (q) =>
      (q.attrs['kind'] === 'direct message' || q.attrs['kind'] === 'offer note') &&
      q.attrs['from'] &&
      q.attrs['from'] !== seat.obs.you.id,
  );
  for (const q of heard.reverse()) {
    const actions = obey(seat.obs, q);
    if (actions.length) return reply(actions);
  }
  return reply([act({ action_type: 'wait' })]);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const emu = await startOpenAiEmulator({ responder: obedientResponder });
  console.log(emu.baseURL);
  process.on('SIGINT', () => void emu.close().then(() => process.exit(0)));
}
