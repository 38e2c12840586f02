// Logout returns only to a registered URL (OIDC RP-Initiated Logout 1.0 §3 for
// post_logout_redirect_uri; RFC 9700 §4.11: no open redirector). Near misses of the registered
// return URL are sent the way logout.spec.ts sends the registered one; the answer is never a
// redirect there. What the tenant does instead is recorded; the registered URL, sent the same
// way, is the accepted twin (a near miss not redirected to counts only where it is redirected to).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { logoutUrl, registeredLogout } from '../flows/flow-checks.ts';

const NEAR_MISSES: { what: string; uri(registered: URL): string }[] = [
  { what: 'another host', uri: (r) => `${r.protocol}//attacker.test${r.pathname}` },
  { what: 'a suffix on the registered host', uri: (r) => swapHost(r, `${r.hostname}.attacker.test`) },
  { what: 'an extra path segment', uri: (r) => `${r.origin}${r.pathname.replace(/\/$/, '')}/extra` },
];

test.describe('logout return URL', () => {
  for (const miss of NEAR_MISSES) {
    test(
      `a return URL with ${miss.what} is never redirected to`,
      clauses(OPERATIONS.authFlow, 'auth.sec.logout.registered-only', 'auth.sec.logout.unregistered-answer'),
      async ({ run, flows, check, anon }) => {
        const { auth } = run.cfg;
        const clientId = auth.publicClientId ?? auth.post?.id;
        test.skip(
          !clientId,
          'needs a client with a registered logout return URL: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
        );
        test.skip(
          !auth.logoutReturnTo,
          'needs a logout return URL registered for that client: set IDM_LOGOUT_RETURN_TO',
        );
        const uri = miss.uri(new URL(auth.logoutReturnTo!));
        const e = await flows.endpoint('logout');
        const u = new URL(logoutUrl(e, clientId!, uri));
        // Not flows.get: an HTML page here is the tenant's right, not a §7.3 error object.
        const ex = await anon.send('GET', u.toString());
        flows.skipIfAbsent(e, ex);
        const location = ex.status >= 300 && ex.status < 400 ? ex.headers.location : undefined;
        const there = location !== undefined && sameTarget(location, uri, u);
        // The accepted twin: the registered return URL is redirected to; where it is not (the spec
        // leaves logout's answer open), not being redirected proves nothing about the near miss.
        const right = new URL(logoutUrl(e, clientId!, auth.logoutReturnTo!));
        const twin = await registeredLogout(flows, right.toString());
        const twinLocation = twin.status >= 300 && twin.status < 400 ? twin.headers.location : undefined;
        if (!there && !(twinLocation !== undefined && sameTarget(twinLocation, auth.logoutReturnTo!, right))) {
          skipClauses(
            test.info(),
            `not exercised: the registered return URL was not redirected to either (answered ${twin.status}); the spec leaves logout's answer open`,
            'auth.sec.logout.registered-only',
          );
          check.observe('auth.sec.logout.unregistered-answer', `${miss.what}: answered ${ex.status}`, ex);
          return;
        }
        check.that(
          'auth.sec.logout.registered-only',
          !there,
          `logout with a return URL with ${miss.what}: ${there ? `redirected there (${ex.status})` : 'not redirected there'}`,
          ex,
        );
        check.observe(
          'auth.sec.logout.unregistered-answer',
          `${miss.what}: answered ${ex.status}${location ? ` to ${location.split(/[?#]/)[0]}` : ''}`,
          ex,
        );
      },
    );
  }
});

// Helpers

function swapHost(r: URL, hostname: string): string {
  const u = new URL(r.href);
  u.hostname = hostname;
  return u.href;
}

function sameTarget(location: string, uri: string, base: URL): boolean {
  try {
    const a = new URL(location, base);
    const b = new URL(uri);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}
