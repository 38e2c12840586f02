// Redirect URIs match exactly (RFC 6749 §3.1.2.3; RFC 9700 §4.1.3, §2.1: simple string
// comparison): each near miss of the registered URI is sent in an authorization request. A
// plain GET, accepting HTML as a browser does, shows whether the tenant redirects there at once;
// when it shows a page instead,
// the browser logs in and the suite looks where it is sent. What the tenant does instead is
// recorded.
import { describeClass, passes, PASSES } from '../../../lib/answer-class.ts';
import { contextOf } from '../../../lib/auth/endpoints.ts';
import { seen } from '../../../lib/auth/conditions.ts';
import { recorded } from '../../../lib/management/recorded.ts';
import { authorizeContext, BROWSER_ACCEPT } from '../../../lib/auth/login-page.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { codeRequest } from '../../../lib/auth/pkce.ts';
import { publicClient } from '../flows/flow-checks.ts';
import type { Exchange } from '../../../lib/http.ts';

interface NearMiss {
  what: string;
  uri(registered: URL): string;
  /** Why the near miss is no miss for this registered URI, or null when it is one. */
  allowed?(registered: URL): string | null;
}

/**
 * The accepted twin, once per worker: the authorization request with the registered URI (its
 * verdict is the same for every near miss; only its state and code challenge would differ).
 */
let twinAnswer: Promise<Exchange> | null = null;

const EXACT = 'auth.sec.redirect-uri.exact';
const ANSWER = 'auth.sec.redirect-uri.answer';
/** Answered with an error status, a 4xx (a redirect carrying an error is not one). */
const ERROR_STATUS = PASSES.refused4xx;
/** Sent as a person's browser sends it (item 2 of issue 31: a server may answer JSON with 401). */
const AS_BROWSER = { headers: { accept: BROWSER_ACCEPT } };

const NEAR_MISSES: NearMiss[] = [
  { what: 'an extra path segment', uri: (r) => withPath(r, `${r.pathname.replace(/\/$/, '')}/extra`) },
  { what: 'a suffix on the host', uri: (r) => swap(r, (u) => (u.hostname = `${r.hostname}.attacker.test`)) },
  {
    what: 'another port',
    uri: (r) => swap(r, (u) => (u.port = String(Number(r.port || (r.protocol === 'https:' ? 443 : 80)) + 1))),
    // RFC 9700 §2.1 excepts the port of a loopback redirect URI from exact matching: a native app
    // listens on whatever port it gets, and the server must take any (RFC 8252 §7.3).
    allowed: (r) =>
      r.protocol === 'http:' && isLoopback(r.hostname)
        ? `not tried: the registered ${r.origin} is a loopback redirect URI, whose port the server must let vary (RFC 8252 §7.3, RFC 9700 §2.1)`
        : null,
  },
  {
    what: 'another scheme',
    uri: (r) => `${r.protocol === 'https:' ? 'http:' : 'https:'}${r.href.slice(r.protocol.length)}`,
  },
  { what: 'a query appended', uri: (r) => swap(r, (u) => u.searchParams.set('next', 'attacker')) },
  { what: 'another case in the path', uri: (r) => withPath(r, flipCase(r.pathname)) },
  { what: 'user-info before another host', uri: (r) => `${r.protocol}//${r.host}@attacker.test${r.pathname}` },
];

test.describe('redirect URIs match exactly', () => {
  for (const miss of NEAR_MISSES) {
    test(
      `a redirect URI with ${miss.what} is never redirected to`,
      clauses(OPERATIONS.authFlow, EXACT, ANSWER),
      async ({ run, flows, anon, gate }) => {
        const { clientId, redirectUri } = publicClient(run.cfg);
        const registered = new URL(redirectUri);
        const allowed = miss.allowed?.(registered) ?? null;
        if (allowed !== null) return void (await gate.call(seen(ANSWER), null, { said: `${miss.what}: ${allowed}` }));
        const uri = miss.uri(registered);
        const e = await flows.endpoint('authorize');
        const { params } = codeRequest(clientId, uri, 'openid');
        const u = new URL(e.url);
        for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
        // Not flows.get: an HTML error page here is the tenant's right, not a §7.3 error object.
        const first = await anon.send('GET', u.toString(), { ...AS_BROWSER, ...contextOf(e) });
        flows.stopIfAbsent(e, first);
        // The accepted twin: the same request with the registered URI is not refused (a login page
        // or a redirect without error); otherwise nothing here proves the near miss was refused for itself.
        const right = new URL(u);
        right.searchParams.set('redirect_uri', redirectUri);
        twinAnswer ??= anon.send('GET', right.toString(), { ...AS_BROWSER, context: authorizeContext([redirectUri]) });
        const twin = (await twinAnswer).answer;
        const accepted = gate.given(
          'auth.flow.code.pkce',
          passes(twin, PASSES.accepted),
          `the same authorization request with the registered redirect URI answered ${(await twinAnswer).status}: ${describeClass(twin)}`,
        );
        const answered = { what: miss.what, ex: first };
        // Redirected there fails the rule whatever the twin did.
        if (first.answer.redirect !== null && isAt(first.headers.location!, uri, registered)) {
          const said = `authorization request with ${miss.what}: redirected to it at once (${first.status})`;
          return void gate.holds(accepted, EXACT, false, said, first, true);
        }
        if (!accepted.ok) {
          gate.skip(accepted, EXACT);
          return void (await gate.call(recorded(ANSWER), null, answered));
        }
        if (passes(first.answer, ERROR_STATUS) || first.answer.class === 'fault') {
          gate.holds(accepted, EXACT, true, `authorization request with ${miss.what}: refused (${first.status})`);
          return void (await gate.call(recorded(ANSWER), null, answered));
        }
        // A login page (or a redirect to one): log in, then see where the browser goes.
        const out = await flows.authorize(e, params, [uri, redirectUri]);
        const there = out.callback !== null && isAt(out.callback.href, uri, registered);
        const after = out.loggedIn ? ' after the login form' : '';
        gate.holds(
          accepted,
          EXACT,
          !there,
          `authorization request with ${miss.what}: ${there ? `the browser was sent there${after}` : 'not redirected there'}`,
          undefined,
          true,
        );
        const error = out.params.error ? ` with error ${out.params.error}` : '';
        const said = out.callback
          ? `the browser was sent to ${there ? 'it' : 'the registered URI'}${error}`
          : `the browser stayed at ${out.stoppedAt ?? 'the tenant'}${after}`;
        await gate.call(seen(ANSWER), null, { said: `${miss.what}: ${said}` });
      },
    );
  }
});

// Helpers

/** Whether `url` is the near miss: same origin and path, and for a query near miss its query too. */
function isAt(url: string, nearMiss: string, registered: URL): boolean {
  try {
    const a = new URL(url, registered);
    const b = new URL(nearMiss);
    if (a.origin !== b.origin || a.pathname !== b.pathname) return false;
    return [...b.searchParams].every(([k, v]) => a.searchParams.get(k) === v);
  } catch {
    return false;
  }
}

/** A loopback host as RFC 8252 §7.3 and RFC 9700 §2.1 mean it: 127.0.0.0/8, ::1, localhost. */
function isLoopback(hostname: string): boolean {
  return /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]' || hostname === 'localhost';
}

function swap(r: URL, change: (u: URL) => void): string {
  const u = new URL(r.href);
  change(u);
  return u.href;
}

function withPath(r: URL, path: string): string {
  return swap(r, (u) => (u.pathname = path));
}

/** The path with the case of its letters flipped (a path without letters gets an upper-case segment). */
function flipCase(path: string): string {
  const flipped = path.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  return flipped === path ? `${path.replace(/\/$/, '')}/X` : flipped;
}
