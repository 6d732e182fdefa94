/**
 * Web voting through personal links. `GET /vote/link/:token`: a link from the bot's `vote`
 * reply (src/web/links); its signature and expiry are checked and its nonce claimed in the store (a link
 * works once, across processes); the browser then gets a signed, HttpOnly, SameSite=Strict session cookie
 * bound to the same user, channel and expiry, and is sent to `/vote`. `GET /vote` shows the person's next
 * pair (blind, in their order), `POST /vote` records a choice (vote.ts: the chat rules) and shows the
 * authors and the judge's scores of that pair, then the next pair; a post that does not come from this page
 * (its Origin, origin.ts) is refused with 403 and records nothing. Plain forms: keyboard-only voting works
 * without script.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { playerBlock, playerText } from '../chat/player-text.js';
import { verifyVoteToken, type VoteClaims } from './links/vote-link.js';
import { VOTE_CHOICES, type VoteChoice } from '../voting/ballots/index.js';
import { renderVoteRecorded } from '../voting/render.js';
import type { WebContext } from './context.js';
import { html, page, postHtml, richText, type Html } from './html.js';
import { messagePage } from './match-views.js';
import { publicMatch } from './people.js';
import type { ServedPair, WebVoteError } from './vote.js';
import { checkSameOrigin } from './origin.js';

const COOKIE = 'arena_vote';
const SessionSchema = z
  .object({ u: z.string().min(1), n: z.string(), c: z.string().min(1), exp: z.number().int() })
  .strict();
type Session = z.infer<typeof SessionSchema>;
const VoteBodySchema = z.object({
  match: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  ballot: z.string().regex(/^v_\d{1,3}$/),
  pair: z.coerce.number().int().min(1).max(1000),
  choice: z.enum(VOTE_CHOICES as unknown as [VoteChoice, ...VoteChoice[]]),
});

const REFUSED: Record<WebVoteError, string> = {
  unknown_ballot: 'That ballot is not open in your channel.',
  unknown_pair: 'That ballot has no such pair.',
  own_pitch: "That pair holds your own seat's pitch: you cannot vote on it.",
  ballot_closed: 'That ballot is closed; its results were posted in the channel.',
  duplicate_vote: 'You already voted on that pair: one vote per person per pair.',
  rate_limited: 'You are voting too fast.',
};

const LINK_REFUSED = {
  malformed_link: 'This is not a valid voting link.',
  bad_signature: 'This voting link is not valid (it was not made by this arena, or it was changed).',
  expired_link: 'This voting link has expired. Ask the bot for a new one with `vote` in your channel.',
  used_link:
    'This voting link was already used. Links work once; ask the bot for a new one with `vote` in your channel.',
} as const;

/** The pair form: both pitches as text, four submit buttons. */
function pairForm(s: ServedPair): Html {
  const { ballot: b, shown } = s;
  const choice = (value: VoteChoice, label: string, cls: string) =>
    html`<button type="submit" name="choice" value="${value}" class="${cls}">${label}</button>`;
  return html`<section class="pair" aria-labelledby="pair-h"><h2 id="pair-h">Ballot ${b.id} · pair ${shown.pair} of ${b.pairs.length} (round ${b.round + 1} pitches)</h2>
<p>Which pitch argues better for priority? Authors are hidden (names of labs, jobs, blocks and players are replaced); you see who wrote them and the judge's scores after you vote. ${s.left} pair${s.left === 1 ? '' : 's'} left for you on this ballot, this one included.</p>
<div class="pitches"><figure class="pitch"><figcaption>Pitch A</figcaption><blockquote>${richText(playerBlock(shown.blindA.text))}</blockquote></figure><figure class="pitch"><figcaption>Pitch B</figcaption><blockquote>${richText(playerBlock(shown.blindB.text))}</blockquote></figure></div>
<form method="post" action="/vote" class="choices"><input type="hidden" name="match" value="${s.match.id}"><input type="hidden" name="ballot" value="${b.id}"><input type="hidden" name="pair" value="${shown.pair}">
${choice('a', 'A is better', 'primary')} ${choice('b', 'B is better', 'primary')} ${choice('tie', 'Tie', '')} ${choice('both_bad', 'Both are bad', 'danger')}</form></section>`;
}

/** Register the routes. */
export function registerVoteRoutes(app: FastifyInstance, ctx: WebContext): void {
  const secure = ctx.settings.web.publicUrl?.startsWith('https:') ?? false;
  const session = (req: FastifyRequest): Session | null => {
    const raw = req.cookies[COOKIE];
    if (!raw) return null;
    const u = req.unsignCookie(raw);
    if (!u.valid || u.value === null) return null;
    try {
      const s = SessionSchema.parse(JSON.parse(u.value));
      return s.exp * 1000 > ctx.now() ? s : null;
    } catch {
      return null;
    }
  };
  const votePage = (
    reply: FastifyReply,
    s: Session,
    before: Html | null,
    next: { pair: ServedPair | null; openBallots: number },
    status = 200,
  ) => {
    const body = html`<h1>Blind vote on pitches</h1><p class="meta">Voting as <strong>${s.n || 'you'}</strong> until ${new Date(s.exp * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC. Your votes count as if cast in the channel.</p>
${before ?? ''}${next.pair ? pairForm(next.pair) : html`<section class="pair"><h2>Nothing left for you</h2><p>${next.openBallots === 0 ? 'No ballot is open in your channel right now. One opens when a round with two or more pitches closes.' : "You have judged every pair open to you. Thanks! The judge's scores are posted when each ballot closes."}</p></section>`}`;
    // The page's own form must name its origin: under the site-wide `no-referrer` a browser sends `Origin: null`
    // on every POST, which the origin check refuses (origin.ts). `same-origin` still sends nothing to other sites.
    reply.header('referrer-policy', 'same-origin');
    return ctx.send(reply, page({ title: 'Vote', body }), status);
  };

  app.get<{ Params: { token: string } }>('/vote/link/:token', async (req, reply) => {
    const v = verifyVoteToken(req.params.token, ctx.linkSecret, ctx.now());
    if (!v.ok)
      return ctx.send(
        reply,
        messagePage('Voting link refused', LINK_REFUSED[v.code]),
        v.code === 'expired_link' ? 410 : 403,
      );
    const c: VoteClaims = v.claims;
    if (!(await ctx.store.tryClaim(`web_link:${c.j}`)))
      return ctx.send(reply, messagePage('Voting link refused', LINK_REFUSED.used_link), 410);
    const value = JSON.stringify({ u: c.u, n: c.n, c: c.c, exp: c.exp } satisfies Session);
    const maxAge = Math.max(1, Math.floor(c.exp - ctx.now() / 1000));
    reply.setCookie(COOKIE, value, { signed: true, httpOnly: true, sameSite: 'strict', secure, path: '/vote', maxAge });
    return reply.redirect('/vote', 303);
  });

  app.get('/vote', async (req, reply) => {
    const s = session(req);
    if (!s)
      return ctx.send(
        reply,
        messagePage(
          'Voting needs your personal link',
          'Ask the bot with `vote` in your channel: its reply has a personal link to vote here.',
        ),
        401,
      );
    return votePage(reply, s, null, await ctx.votes.next({ userId: s.u, channelId: s.c }));
  });

  app.post('/vote', async (req, reply) => {
    // Cross-site forms carry the voter's cookie only where SameSite is not honoured; their Origin gives them away.
    const origin = checkSameOrigin(req.headers, ctx.settings.web.publicUrl);
    if (!origin.ok) {
      const from =
        origin.origin === null ? 'a page that did not say where it was' : `another site (${playerText(origin.origin)})`;
      return ctx.send(
        reply,
        messagePage(
          'Vote refused',
          `This vote was sent from ${from}, not from this page, so it was not recorded. Vote on the page your personal link opened.`,
        ),
        403,
      );
    }
    const s = session(req);
    if (!s)
      return ctx.send(
        reply,
        messagePage(
          'Voting needs your personal link',
          'Your voting session is missing or has expired. Ask the bot for a new link with `vote`.',
        ),
        401,
      );
    const body = VoteBodySchema.safeParse(req.body);
    const voter = { userId: s.u, channelId: s.c };
    if (!body.success)
      return votePage(
        reply,
        s,
        html`<p class="error" role="alert">That vote was not understood.</p>`,
        await ctx.votes.next(voter),
        400,
      );
    const r = await ctx.votes.cast(voter, body.data.match, body.data.ballot, body.data.pair, body.data.choice);
    if (!r.ok) {
      const why = `${REFUSED[r.code]}${r.retryInSeconds ? ` Try again in ${r.retryInSeconds} s.` : ''}`;
      return votePage(
        reply,
        s,
        html`<p class="error" role="alert">Vote not recorded: ${why}</p>`,
        await ctx.votes.next(voter),
        r.code === 'rate_limited' ? 429 : 409,
      );
    }
    const done = renderVoteRecorded(publicMatch(r.match, ctx.naming), r.ballot, r.shown, body.data.choice);
    return votePage(
      reply,
      s,
      html`<div role="status">${postHtml(done, 'recorded')}</div>`,
      await ctx.votes.next(voter),
    );
  });
}
