// What the tenant did with a request, decided once, when it is received: every exchange is
// classified by the first rule of RULES that speaks of it, in the context its receiver knows
// (AnswerContext), and carries that reading (`ex.answer`, lib/README.md). The rule's citation goes
// into the check's evidence, so nothing downstream reads the message or compares a status range again.
import type { Exchange, RawExchange } from './http.ts';
import { isObject } from './values.ts';
import type { AnswerClass } from './skip-record.ts';
import type { Endpoint } from './auth/endpoints.ts';

export type { AnswerClass } from './skip-record.ts';

/** What the run knows around an exchange, besides the exchange itself. */
export interface AnswerContext {
  /** The endpoint the request went to and how the suite found it (a 404 at a listed one is a refusal). */
  endpoint?: Endpoint;
  /** The flow is declared in IDM_NOT_OFFERED. */
  declared?: boolean;
  /** The redirect URIs registered for the suite's clients (an error sent there is told to the client). */
  clientRedirects?: readonly string[];
  /** Pages known to be the tenant's login page: absolute URLs or paths on the request's origin. */
  loginPages?: readonly string[];
}

/** An exchange as received, or the request that got no answer in full (a time-out, a reset). */
export type Answer = RawExchange | { noAnswer: Error };

export type RuleId = (typeof RULES)[number]['id'];

export interface Classified {
  class: AnswerClass;
  rule: RuleId;
  citation: string;
}

/** An exchange's class and what the gate and the conditions read of it, decided once where it is received. */
export interface Reading extends Classified {
  /** RFC 6749 §5.1: a 2xx carrying an access_token and a token_type, the credential issued; else null. */
  issued: { accessToken: string; tokenType: string } | null;
  /**
   * The access token a 2xx carries, whatever else the answer lacks: what a client goes on with (the
   * management client's token, a token for the API), while a missing token_type is the token answer's
   * own rule (auth.token.answer), one failure where it lands.
   */
  accessToken: string | null;
  /** Where a 3xx sends the browser (its Location), or null. */
  redirect: URL | null;
  /** The `error` member of a JSON error object (RFC 6749 §5.2, §7.3), or null. */
  error: string | null;
}

interface Rule {
  id: string;
  class: AnswerClass;
  citation: string;
  /** `to`: where a 3xx sends the browser (redirectTarget), read once for every rule. */
  applies(a: Answer, ctx: AnswerContext, to: URL | null): boolean;
}

/** First match wins: the order is part of the rules (a declared flow before its 404, a 415 before any 4xx). */
export const RULES = [
  {
    id: 'declared-not-offered',
    class: 'not-offered',
    citation: '§4.3 names the flows; the tenant declares those it does not offer (IDM_NOT_OFFERED)',
    applies: (_a: Answer, ctx: AnswerContext) => ctx.declared === true,
  },
  {
    id: 'no-answer',
    class: 'no-answer',
    citation: 'RFC 9110 §9.2.2: no answer in full (timed out or reset) says nothing of the request',
    applies: (a: Answer) => 'noAnswer' in a,
  },
  {
    id: 'endpoint-absent',
    class: 'not-offered',
    citation:
      'RFC 9110 §15.5.5, §15.5.6: no such resource (404), or no such method at a path nobody named (405), at an endpoint discovery does not list (OpenID Connect Discovery 1.0 §3)',
    applies: (a: Answer, ctx: AnswerContext) =>
      'status' in a &&
      ctx.endpoint !== undefined &&
      ((a.status === 404 && ctx.endpoint.source !== 'discovery') ||
        (a.status === 405 && ctx.endpoint.source === 'default')),
  },
  {
    id: 'server-error',
    class: 'fault',
    citation:
      'RFC 9110 §15.6: a 5xx is a fault of the server; §7.1 lists the management API’s statuses and §7.3 answers a faulty request 4xx',
    applies: (a: Answer) => 'status' in a && a.status >= 500,
  },
  {
    id: 'unsupported-media-type',
    class: 'refused',
    citation: 'RFC 9110 §15.5.16: the body was refused for its content type, unread',
    applies: (a: Answer) => 'status' in a && a.status === 415,
  },
  {
    id: 'page-for-user',
    class: 'refused',
    citation:
      "RFC 6749 §4.1.2.1: an authorization request in error is not redirected; the resource owner is told, in a page of the tenant's (any media type but JSON), as a login page's error is",
    applies: (a: Answer, ctx: AnswerContext) =>
      'status' in a &&
      a.status >= 400 &&
      a.status < 500 &&
      (/^text\/html/i.test(a.headers['content-type'] ?? '') ||
        (ctx.endpoint?.which === 'authorize' && !/json/i.test(a.headers['content-type'] ?? ''))),
  },
  {
    id: 'client-error',
    class: 'refused',
    citation: "§7.3; RFC 9110 §15.5: a 4xx is a refusal, the client's fault",
    applies: (a: Answer) => 'status' in a && a.status >= 400 && a.status < 500,
  },
  {
    id: 'error-to-client',
    class: 'refused',
    citation: 'RFC 6749 §4.1.2.1, §4.2.2.1: the error told to the client at its registered redirect URI',
    applies: (_a: Answer, ctx: AnswerContext, to: URL | null) =>
      to !== null && carried(to).has('error') && toClient(to, ctx),
  },
  {
    id: 'error-redirect',
    class: 'refused',
    citation: 'RFC 6749 §4.1.2.1: an error shown to the resource owner, never sent to an unchecked client',
    applies: (_a: Answer, _ctx: AnswerContext, to: URL | null) => to !== null && carried(to).has('error'),
  },
  {
    id: 'login-page',
    class: 'accepted',
    citation: 'RFC 6749 §3.1: the server goes on to authenticate the resource owner — not a refusal',
    applies: (_a: Answer, ctx: AnswerContext, to: URL | null) => to !== null && isLoginPage(to, ctx),
  },
  {
    id: 'to-client',
    class: 'accepted',
    citation: 'RFC 6749 §4.1.2, §4.2.2: the answer sent to the client (a code or tokens, no error)',
    applies: (_a: Answer, ctx: AnswerContext, to: URL | null) => to !== null && toClient(to, ctx),
  },
  {
    id: 'own-error-page',
    class: 'refused',
    citation:
      "RFC 6749 §4.1.2.1: a redirect to the tenant's own origin carrying no code or token and naming no client (its error page)",
    applies: (a: Answer, ctx: AnswerContext, to: URL | null) => {
      if (to === null || !('request' in a) || to.origin !== new URL(a.request.url).origin) return false;
      const params = carried(to);
      return (
        ![...params.keys()].some((k) => ['code', 'access_token', 'id_token'].includes(k)) && !namesClient(params, ctx)
      );
    },
  },
  {
    id: 'redirect-onward',
    class: 'accepted',
    citation: 'RFC 9110 §15.4: sent on elsewhere (a login app on another origin), not refused',
    applies: (a: Answer) => 'status' in a && a.status >= 300 && a.status < 400,
  },
  {
    id: 'success',
    class: 'accepted',
    citation: 'RFC 9110 §15.3: a 2xx',
    applies: (a: Answer) => 'status' in a,
  },
] as const satisfies readonly Rule[];

/** The class of what the tenant did, by the first rule that speaks of it. */
export function classify(a: Answer, ctx: AnswerContext = {}): Classified {
  const to = redirectTarget(a);
  const rule = RULES.find((r) => r.applies(a, ctx, to)) as (typeof RULES)[number];
  return { class: rule.class, rule: rule.id, citation: rule.citation };
}

/** The exchange `raw` read once, in the context its receiver knows: what every judgement of it reads. */
export function received(raw: RawExchange, ctx: AnswerContext = {}): Exchange {
  const body = isObject(raw.body) ? raw.body : {};
  const token = raw.status >= 200 && raw.status < 300 && typeof body.access_token === 'string' ? body.access_token : '';
  const type = body.token_type;
  return {
    ...raw,
    answer: {
      ...classify(raw, ctx),
      issued: token !== '' && typeof type === 'string' ? { accessToken: token, tokenType: type } : null,
      accessToken: token || null,
      redirect: redirectTarget(raw),
      error: typeof body.error === 'string' ? body.error : null,
    },
  };
}

/** What passes a clause: classes, and rules of a class that do not (e.g. refused, but not as a content type). */
export interface Passes {
  classes: readonly AnswerClass[];
  except?: readonly RuleId[];
}

/**
 * Which answers pass the clauses judged on one exchange's class. The clauses that judge a token
 * answer (RFC 6749 §5.1) or an exact status add their own condition on top.
 */
export const PASSES = {
  /** An accepted twin: the request made right was taken (a 5xx is never taken, nor a login page for a refusal). */
  accepted: { classes: ['accepted'] },
  /** A wrong request refused with a 4xx (§7.3): never a 5xx, never a redirect at a token endpoint. */
  refused4xx: { classes: ['refused'], except: ['error-to-client', 'error-redirect', 'own-error-page'] },
  /** auth.api.saml-exception: the form was read — any answer but a refusal of its content type; a 5xx never counts. */
  formRead: { classes: ['accepted', 'refused'], except: ['unsupported-media-type'] },
  /** A 2xx: taken, and answered with what was asked (a redirect is no answer of its own). */
  success: { classes: ['accepted'], except: ['login-page', 'to-client', 'redirect-onward'] },
} as const satisfies Record<string, Passes>;

export function passes(c: Classified, p: Passes): boolean {
  return p.classes.includes(c.class) && !(p.except ?? []).includes(c.rule);
}

/** One line for a message: the class and the rule that gave it. */
export function describeClass(c: Classified): string {
  return `${c.class} (${c.rule})`;
}

/** The evidence a check carries beside its exchange: the class, the rule, its citation. */
export function answerEvidence(c: Classified): { answer: Classified } {
  return { answer: { class: c.class, rule: c.rule, citation: c.citation } };
}

// Helpers

/** Where a 3xx sends the browser, or null for any other answer: the one reading of a Location (`ex.answer.redirect`). */
export function redirectTarget(a: Answer): URL | null {
  if (!('status' in a) || a.status < 300 || a.status >= 400) return null;
  const location = a.headers.location;
  if (location === undefined) return null;
  try {
    return new URL(location, a.request.url);
  } catch {
    return null;
  }
}

/** The parameters a redirect carries, in the query or the fragment. */
export function carried(to: URL): URLSearchParams {
  return new URLSearchParams([...to.searchParams, ...new URLSearchParams(to.hash.slice(1))]);
}

/** The target is a registered client redirect URI. */
function toClient(to: URL, ctx: AnswerContext): boolean {
  return (ctx.clientRedirects ?? []).some((r) => to.href.startsWith(r));
}

/** A parameter of the redirect names a registered client redirect URI (a page that sends the browser on there). */
function namesClient(params: URLSearchParams, ctx: AnswerContext): boolean {
  return [...params.values()].some((v) => (ctx.clientRedirects ?? []).some((r) => v.startsWith(r)));
}

function isLoginPage(to: URL, ctx: AnswerContext): boolean {
  return (ctx.loginPages ?? []).some((p) => {
    const page = new URL(p, to);
    return page.origin === to.origin && page.pathname.replace(/\/$/, '') === to.pathname.replace(/\/$/, '');
  });
}
