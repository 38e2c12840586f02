// Logout returns only to a registered URL (OIDC RP-Initiated Logout 1.0 §3 for
// post_logout_redirect_uri; RFC 9700 §4.11: no open redirector). Near misses of the registered
// return URL are sent the way logout.spec.ts sends the registered one; the answer is never a
// redirect there. What the tenant does instead is recorded; the registered URL, sent the same
// way, is the accepted twin (a near miss not redirected to counts only where it is redirected to).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { logoutUrl, registeredLogout } from '../flows/flow-checks.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { notDrivenSkip } from '../../../lib/auth/flow-logins.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

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
      async ({ run, flows, check, gate }) => {
        const { auth } = run.cfg;
        skipTest(notOfferedSkip(run.cfg, 'logout'));
        const clientId = auth.publicClientId ?? auth.post?.id;
        skipTest(
          !clientId &&
            runSkip(
              { setting: 'IDM_PUBLIC_CLIENT_ID' },
              'needs a client with a registered logout return URL: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
            ),
        );
        skipTest(
          !auth.logoutReturnTo &&
            runSkip(
              { setting: 'IDM_LOGOUT_RETURN_TO' },
              'needs a logout return URL registered for that client: set IDM_LOGOUT_RETURN_TO',
            ),
        );
        const returnTo = auth.logoutReturnTo!;
        const uri = miss.uri(new URL(returnTo));
        const e = await flows.endpoint('logout');
        const u = new URL(logoutUrl(e, clientId!, uri));
        // Through a confirmation page when the tenant shows one: where the browser ends is the answer.
        const near = await flows.logout(u.toString(), [uri, returnTo]);
        flows.stopIfAbsent(e, near.ex);
        skipTest(notDrivenSkip({ notDriven: near.notDriven, stoppedAt: null }));
        const there = near.redirectedTo !== null && sameTarget(near.redirectedTo, uri, u);
        // The accepted twin: the registered return URL is redirected to; where it is not (the spec
        // leaves logout's answer open), not being redirected proves nothing about the near miss.
        const right = new URL(logoutUrl(e, clientId!, returnTo));
        const twin = await registeredLogout(flows, right.toString(), returnTo);
        skipTest(!there && notDrivenSkip({ notDriven: twin.notDriven, stoppedAt: null }));
        const answered = `answered ${near.ex.status}${near.redirectedTo ? ` to ${near.redirectedTo.split(/[?#]/)[0]}` : ''}${near.pages.length > 0 ? ` (through ${near.pages.join(' → ')})` : ''}`;
        // The accepted twin: the registered return URL, redirected to. Where it is not (the spec leaves
        // logout's answer open), a near miss not redirected to proves nothing: not applicable.
        const accepted = twin.redirectedTo !== null && sameTarget(twin.redirectedTo, returnTo, right);
        if (!there && !accepted) {
          skipClauses(
            test.info(),
            tenantSkip(
              {},
              `not applicable: the registered return URL was not redirected to either (answered ${twin.ex.status}); the spec leaves logout's answer open`,
            ),
            'auth.sec.logout.registered-only',
          );
          check.observe('auth.sec.logout.unregistered-answer', `${miss.what}: ${answered}`, near.ex);
          return;
        }
        // Redirected there fails the rule whatever the twin did.
        gate.holds(
          gate.given('auth.flow.logout', accepted, `answered ${twin.ex.status}`),
          'auth.sec.logout.registered-only',
          !there,
          `logout with a return URL with ${miss.what}: ${there ? `redirected there (${answered})` : 'not redirected there'}`,
          near.ex,
          true,
        );
        check.observe('auth.sec.logout.unregistered-answer', `${miss.what}: ${answered}`, near.ex);
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
