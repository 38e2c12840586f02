// §4.3 request conventions of the authentication API: POST parameters as JSON (a token
// endpoint that takes only forms does not conform), GET parameters in the query string, and
// the one exception — SAML IdP-initiated SSO, a query parameter with a form-encoded value.
import { probeRecorded } from '../../../lib/auth/conditions.ts';
import { recorded } from '../../../lib/management/recorded.ts';
import { notIssuedCause } from '../../../lib/answer-words.ts';
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { contextOf, endpoint } from '../../../lib/auth/endpoints.ts';
import { GRANT_CLAUSE } from '../../../lib/auth/encoding.ts';
import { notOfferedSkip } from '../../../lib/config.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { NO_POST_CLIENT } from '../../../lib/auth/needs.ts';
import { describeClass, passes, PASSES } from '../../../lib/answer-class.ts';
import { describeProbe, probeAuthorize } from '../../../lib/auth/probe.ts';

test.describe('authentication API request conventions (§4.3)', () => {
  test(
    'POST: a token request as JSON is answered like the same request as a form',
    clauses(OPERATIONS.authApi, 'auth.api.post-json', 'auth.api.base'),
    async ({ run, anon, gate, flows }) => {
      const { cfg } = run;
      // The authentication API's own client, over the grant it offers: lib/auth/encoding.ts's probe
      // is this very comparison (the form is sent only when JSON gives no token), so its answers
      // are judged here, on the authentication API's own token endpoint.
      const enc = await flows.encoding();
      skipTest(!enc.probe && NO_POST_CLIENT);
      const { json, form } = enc.probe!;
      const grant = enc.grant.replace('_', '-');
      // The root cause of every "sent as form" in this run's evidence. When the form gets no
      // token either, the encoding is not what fails: the grant's own clauses say why.
      const twin = gate.given(
        GRANT_CLAUSE[enc.grant],
        json.answer.issued !== null || (form !== null && form.answer.issued !== null),
        `${notIssuedCause(json)} as JSON, and as a form ${form ? notIssuedCause(form) : 'not sent'}`,
      );
      const { answer } = json;
      gate.holds(
        twin,
        'auth.api.post-json',
        json.answer.issued !== null,
        json.answer.issued !== null
          ? `the JSON ${grant} request answered ${json.status} with a token`
          : `the JSON ${grant} request ${notIssuedCause(json)} (${describeClass(answer)}); the same request as a form obtained a token: the rest of the authentication API is judged with form bodies`,
        json,
      );
      const base = `the authentication API's token endpoint at ${cfg.auth.tokenUrl}`;
      await gate.call(recorded('auth.api.base'), null, { what: base, ex: json });
    },
  );
});

test.describe('authentication API request conventions (§4.3)', () => {
  test(
    'GET: authorization parameters are read from the query string',
    clauses(OPERATIONS.authApi, 'auth.api.get-query', 'auth.error.client-fault-4xx'),
    async ({ run, anon, gate, flows }) => {
      const { cfg } = run;
      const { publicClientId, post, redirectUri } = cfg.auth;
      skipTest(
        (!(publicClientId ?? post) || !redirectUri) &&
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a client and its redirect URI: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID) and IDM_REDIRECT_URI',
          ),
      );
      // Positive evidence (issue 40, item 2): the code flow's login sent client_id and redirect_uri
      // (and state) in the query and came back to that redirect_uri (RFC 6749 §4.1.2, §4.1.2.1 for an
      // error): the tenant read them there, whenever it read them (a server may log the user in
      // first). The state it brought back is the code flow's own rule (auth.flow.code.*), said here
      // only. The shared login of the client (flows.userTokens) is that flow.
      const user = publicClientId
        ? await flows.userTokens(USER_SCOPE)
        : await flows.userTokens('openid offline_access', { confidential: true });
      skipTest((user.login === 'not-driven' || user.login === 'refused') && user.problem);
      const client = user.clientId ?? '';
      const back = user.login === 'came-back' || user.login === 'another-state';
      const sent = `the authorization request of client ${client} with client_id, redirect_uri and state in its query`;
      const twin = gate.accepted(
        'auth.api.get-query',
        back,
        back
          ? `${sent} came back to that redirect_uri${user.login === 'came-back' ? ' with that state' : ' without the state it sent'}`
          : `${sent} never came back to that redirect_uri: ${user.problem?.text ?? user.login}`,
        `${user.login}: ${user.problem?.text ?? ''}`,
      );
      // The same request without its parameters is recorded, anonymously and, where the tenant shows
      // its login page, after the login (RFC 6749 §4.1.2.1 says the server SHOULD inform the person,
      // not when). One rule is stated: it is never sent to a client (§4.1.2.1: no client, no redirect URI).
      const e = await flows.endpoint('authorize');
      const bare = await probeAuthorize(flows, anon, e, {}, [redirectUri!]);
      const what = `GET ${new URL(e.url).pathname} without query parameters`;
      if (bare.anonymous.answer.class === 'fault') return void gate.faulted([], bare.anonymous, what);
      await gate.call(probeRecorded('auth.api.get-query'), null, { what, probe: bare });
      const atOnce = bare.anonymous.answer;
      const sentToClient =
        atOnce.rule === 'to-client' || atOnce.rule === 'error-to-client' || bare.afterLogin?.callback;
      if (sentToClient)
        gate.holds(
          twin,
          'auth.api.get-query',
          false,
          `${what}: ${describeProbe(bare)}: a request that names no client was answered at a client's redirect URI`,
          bare.anonymous,
          true,
        );
    },
  );
});

test.describe('authentication API request conventions (§4.3)', () => {
  test(
    'SAML IdP-initiated: a form-encoded SAMLResponse is read; an invalid one is a 4xx error object',
    clauses(OPERATIONS.authApi, 'auth.api.saml-exception', 'auth.error.client-fault-4xx', 'auth.error.object'),
    async ({ run, anon, gate, flows }) => {
      const { cfg } = run;
      skipTest(notOfferedSkip(cfg, 'saml'));
      skipTest(
        !cfg.auth.samlConnection &&
          runSkip({ setting: 'IDM_SAML_CONNECTION' }, 'needs a SAML connection: set IDM_SAML_CONNECTION'),
      );
      const cb = await endpoint(cfg, anon, 'samlCallback');
      const url = `${cb.url}?connection=${encodeURIComponent(cfg.auth.samlConnection!)}`;
      const invalid = Buffer.from(
        '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">not signed</samlp:Response>',
      ).toString('base64');
      const ex = await anon.send('POST', url, { data: { SAMLResponse: invalid }, encoding: 'form', ...contextOf(cb) });
      // §4.3 names the SAML callback: an absent one is a missing flow (its own clause fails), never a refusal.
      flows.stopIfAbsent(cb, ex);
      const what = 'an invalid SAMLResponse';
      const { answer } = ex;
      // A 5xx says nothing of whether the form was read: the service fault of §7.3, judged there alone.
      if (answer.class === 'fault') return void gate.faulted('auth.api.saml-exception', ex, what);
      // The form is read (its one exception to the JSON convention): the twin of the refusal of its content.
      const read = gate.accepted(
        'auth.api.saml-exception',
        passes(answer, PASSES.formRead),
        `the form-encoded SAMLResponse answered ${ex.status}: ${describeClass(answer)}`,
        `answered ${ex.status}: ${describeClass(answer)}`,
        ex,
        answer,
      );
      gate.refused(read, 'auth.api.saml-exception', ex, what);
    },
  );
});
