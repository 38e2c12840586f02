// Logout returns only to a registered URL (OIDC RP-Initiated Logout 1.0 §3 for
// post_logout_redirect_uri; RFC 9700 §4.11: no open redirector). Near misses of the registered
// return URL are sent the way logout.spec.ts sends the registered one; the answer is never a
// redirect there. What the tenant does instead is recorded; the registered URL, sent the same
// way, is the accepted twin (a near miss not redirected to counts only where it is redirected to).
// Where neither is redirected, both are sent again with the ID token of a login of their own as
// id_token_hint (OIDC RP-Initiated Logout 1.0 §2): some servers return only to a named session.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import type { Flows, LogoutAnswer } from '../../../lib/auth/flow-fixtures.ts';
import type { Endpoint } from '../../../lib/auth/endpoints.ts';
import { logoutClient, logoutHint, logoutUrl, registeredLogout } from '../flows/flow-checks.ts';
import { tenantSkip } from '../../../lib/skip-record.ts';
import { notDrivenSkip } from '../../../lib/auth/flow-logins.ts';
import { describeLogout, logoutRecorded } from '../../../lib/auth/conditions.ts';

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
      async ({ run, flows, gate }) => {
        const { clientId, returnTo, confidential } = logoutClient(run.cfg);
        const uri = miss.uri(new URL(returnTo));
        const e = await flows.endpoint('logout');
        let tried = await nearAndTwin(flows, e, clientId, uri, returnTo, {});
        let hinted = false;
        if (!tried.there && !tried.accepted) {
          // Neither redirected: the tenant may return only to a session the request names (OIDC
          // RP-Initiated Logout 1.0 §2). Both again, with the ID token of a login of their own.
          const hint = await logoutHint(flows, confidential);
          if (hint !== null) {
            flows.secret(hint);
            tried = await nearAndTwin(flows, e, clientId, uri, returnTo, { id_token_hint: hint });
            hinted = true;
          }
        }
        const { near, twin, there, accepted } = tried;
        const how = hinted ? ' (with id_token_hint)' : '';
        await gate.call(logoutRecorded, null, { what: miss.what, near, how });
        // The accepted twin: the registered return URL, redirected to. Where it is not (the spec leaves
        // logout's answer open), a near miss not redirected to proves nothing: not applicable.
        if (!there && !accepted) {
          skipClauses(
            test.info(),
            tenantSkip(
              {},
              `not applicable: the registered return URL was not redirected to either (answered ${twin.ex.status}${hinted ? ', also with id_token_hint' : ''}); the spec leaves logout's answer open`,
            ),
            'auth.sec.logout.registered-only',
          );
          return;
        }
        // Redirected there fails the rule whatever the twin did.
        gate.holds(
          gate.given('auth.flow.logout', accepted, `answered ${twin.ex.status}${how}`),
          'auth.sec.logout.registered-only',
          !there,
          `logout with a return URL with ${miss.what}${how}: ${there ? `redirected there (${describeLogout(near, how)})` : 'not redirected there'}`,
          near.ex,
          true,
        );
      },
    );
  }
});

/**
 * The near miss, then the registered return URL, sent the same way (`extra`: the hint, or
 * nothing); stops the test where the tenant has no logout or a page could not be driven.
 */
async function nearAndTwin(
  flows: Flows,
  e: Endpoint,
  clientId: string,
  uri: string,
  returnTo: string,
  extra: Record<string, string>,
): Promise<{ near: LogoutAnswer; twin: LogoutAnswer; there: boolean; accepted: boolean }> {
  const u = new URL(logoutUrl(e, clientId, uri, extra));
  // Through a confirmation page when the tenant shows one: where the browser ends is the answer.
  const near = await flows.logout(e, u.toString(), [uri, returnTo]);
  flows.stopIfAbsent(e, near.ex);
  skipTest(notDrivenSkip({ notDriven: near.notDriven, stoppedAt: null }));
  const there = near.redirectedTo !== null && sameTarget(near.redirectedTo, uri, u);
  const right = new URL(logoutUrl(e, clientId, returnTo, extra));
  // Without a hint, the registered logout is sent once per worker (logout.spec.ts records it too).
  const twin =
    Object.keys(extra).length === 0
      ? await registeredLogout(flows, e, right.toString(), returnTo)
      : await flows.logout(e, right.toString(), [returnTo]);
  skipTest(!there && notDrivenSkip({ notDriven: twin.notDriven, stoppedAt: null }));
  const accepted = twin.redirectedTo !== null && sameTarget(twin.redirectedTo, returnTo, right);
  return { near, twin, there, accepted };
}

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
