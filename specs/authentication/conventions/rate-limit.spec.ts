// §8: "Rate limiting applies to the authentication API and the management API … the limit
// state is reported in X-RateLimit-Limit, -Remaining, -Reset". The authentication API's own
// answers are looked at (a tenant that sends the headers on none of them does not conform),
// and the opt-in bounded burst at its token endpoint reaches 429 (§7.3).
import { authLimitStateReported, tooManyRequestsExplained } from '../../../lib/auth/conditions.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { judgeByRule } from '../../../lib/answer-rules.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { clauseSkip } from '../../../lib/skip-record.ts';
import { notOfferedSkip, optInSkip } from '../../../lib/config.ts';
import { burstOnBlockedBucket, burstUnbreached } from '../../../lib/burst.ts';
import { clientCredentialsAnswer, GRANT_CLAUSE, probeAnswer, probeGrant } from '../../../lib/auth/encoding.ts';
import { endpoint } from '../../../lib/auth/endpoints.ts';
import { tokenGave } from '../../../lib/auth/flow-products.ts';
import { NO_POST_CLIENT } from '../../../lib/auth/needs.ts';

test.describe('rate limits of the authentication API (§8)', () => {
  test(
    'authentication-API answers report the limit state in X-RateLimit-*',
    clauses(OPERATIONS.authRateLimit, 'ratelimit.auth-api.headers'),
    async ({ run, anon, gate, flows }) => {
      const { cfg } = run;
      const data = probeGrant(cfg);
      skipTest(!data && NO_POST_CLIENT);
      const enc = await flows.encoding();
      const { encoding, note } = enc;
      // The probe's answer is an authentication-API answer like any other: not asked again.
      const token = clientCredentialsAnswer(enc) ?? (await anon.send('POST', cfg.auth.tokenUrl, { data, encoding }));
      // An unknown token at the revocation endpoint (where the tenant offers one): RFC 7009 §2.2
      // answers 200, nothing is revoked.
      const revoked = notOfferedSkip(cfg, 'revoke')
        ? []
        : [
            await anon.send('POST', (await endpoint(cfg, anon, 'revoke')).url, {
              data: {
                client_id: data!.client_id,
                client_secret: data!.client_secret,
                token: 'idm-conformance-unknown-token',
              },
              encoding,
            }),
          ];
      await gate.call(authLimitStateReported, null, { looked: [token, ...revoked], note });
    },
  );
});

test.describe('rate limits of the authentication API (§8)', () => {
  test(
    'a burst of token requests: the authentication API answers 429 with the X-RateLimit-* headers and a message naming them',
    clauses(OPERATIONS.authRateLimit, 'auth.error.429', 'ratelimit.429.remaining-spent'),
    async ({ suite, anon, counter, check, gate, flows }, info) => {
      const { cfg } = suite;
      skipTest(optInSkip(cfg, 'burst'));
      const data = probeGrant(cfg);
      skipTest(!data && NO_POST_CLIENT);
      // The authentication API's own client and the encoding it accepts (JSON by §4.3).
      const enc = await flows.encoding();
      const { encoding } = enc;
      // The twin: the client's request over the grant the tenant offers (the probe's own answer); the
      // burst's requests spend the token endpoint's bucket whatever they ask.
      const right = probeAnswer(enc) ?? (await anon.send('POST', cfg.auth.tokenUrl, { data, encoding }));
      const twin = gate.gave(tokenGave(GRANT_CLAUSE[enc.grant], right));
      if (!twin.ok) {
        gate.skip(twin, 'auth.error.429', 'ratelimit.429.remaining-spent');
        return;
      }
      // The bucket the client's paced requests spend: the burst keeps the other workers off it.
      const key = anon.bucket('POST', cfg.auth.tokenUrl, { data });
      const result = await burstOnBlockedBucket(suite.pacer, key, {
        url: cfg.auth.tokenUrl,
        method: 'POST',
        headers: {
          'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: encoding === 'json' ? JSON.stringify(data) : new URLSearchParams(data!).toString(),
        max: 1000,
        boundByLimit: true,
        timeoutMs: cfg.timeoutMs,
        onSent: () => counter.sent++,
      });
      const r = result.first429;
      // No breach within the bound: nothing §7.3 speaks about happened (ratelimit.auth-api.headers judges the headers).
      // The tenant's own behaviour, on any machine: its limit is absent or above what the run may spend.
      skipTest(!r && burstUnbreached(result, 'token requests'));
      await gate.call(tooManyRequestsExplained, null, {
        r: r!,
        what: `the token endpoint's 429 after ${result.sent} requests`,
      });
      // The burst's own connections pass no client: the rule about every 429 is applied here; a 429
      // without a numeric limit state has nothing it speaks of, auth.error.429's finding.
      if (!judgeByRule('ratelimit.429.remaining-spent', r!, cfg, { check, info }))
        skipClauses(
          info,
          clauseSkip('auth.error.429', 'not judged: the 429 reports no numeric X-RateLimit-Limit and -Remaining'),
          'ratelimit.429.remaining-spent',
        );
    },
  );
});
