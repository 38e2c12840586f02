// Every refusal on a live credential. A wrong presentation of a single-use credential (an
// authorization code) is refused by a tenant that checks the rule, and just as well by one that meets
// a code already spent: so a refusal counts only where the credential was live when it met it — its
// first presentation, or one whose genuine use succeeded after it. A server may let a misused code
// die (RFC 6749 §4.1.2): the attempts after it are sent again on a fresh credential. An accepted
// wrong presentation is decisive on any code.
import type { Exchange } from '../http.ts';
import type { TokenAnswer } from './flow-types.ts';

/** A token endpoint's answer, as the caller reads it. */
type Answered = { ex: Exchange };

export interface LiveAttempt<C, A extends Answered = TokenAnswer> {
  id: string;
  /** The wrong presentation of credential `c`. */
  send(c: C): Promise<A>;
}

export interface LiveRun<C, A extends Answered = TokenAnswer> {
  /** Each attempt's answer, met on a live credential; absent: no fresh credential was had for it. */
  answers: ReadonlyMap<string, A>;
  /** The last genuine use: the accepted twin when `twinCredential` is set. */
  twin: A | null;
  /** The credential the accepted twin spent (a single-use credential is then presented again), or null. */
  twinCredential: C | null;
  /** Fresh credentials taken, the first included. */
  credentials: number;
}

/**
 * Sends `attempts` in order on fresh credentials, each round followed by the genuine use
 * (`genuine`): `first` alone where every refusal leaves it live, more where one did not. `fresh`
 * gives a new credential (a login's code), or null when none came.
 */
export async function onLiveCredentials<C, A extends Answered = TokenAnswer>(o: {
  first: C;
  fresh(): Promise<C | null>;
  genuine(c: C): Promise<A>;
  attempts: readonly LiveAttempt<C, A>[];
}): Promise<LiveRun<C, A>> {
  const answers = new Map<string, A>();
  let pending = [...o.attempts];
  let twin: A | null = null;
  let twinCredential: C | null = null;
  let credentials = 0;
  // Each round settles its first attempt at least (met on a fresh credential), so rounds are bounded.
  let next: C | null = o.first;
  while (pending.length > 0) {
    const c = next ?? (await o.fresh());
    next = null;
    if (c === null) break;
    credentials++;
    const ran: Array<[LiveAttempt<C, A>, A]> = [];
    for (const a of pending) {
      const r = await a.send(c);
      ran.push([a, r]);
      if (r.ex.answer.issued !== null) break; // spent: the rest wait for a fresh credential
    }
    const g = await o.genuine(c);
    twin = g;
    if (g.ex.answer.issued !== null) {
      twinCredential = c;
      for (const [a, r] of ran) answers.set(a.id, r);
    } else for (const [i, [a, r]] of ran.entries()) if (i === 0 || r.ex.answer.issued !== null) answers.set(a.id, r);
    pending = pending.filter((a) => !answers.has(a.id));
  }
  // No genuine use accepted yet: a fresh credential's own is the twin.
  if (twinCredential === null) {
    const c = await o.fresh();
    if (c !== null) {
      credentials++;
      twin = await o.genuine(c);
      if (twin.ex.answer.issued !== null) twinCredential = c;
    }
  }
  return { answers, twin, twinCredential, credentials };
}
