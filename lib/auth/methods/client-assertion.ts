// §5.2 "Client ID and client assertion" (RFC 7523 §3): a signed assertion of the
// private_key_jwt client, signed for the tenant's audience, with one property broken at a time.
import { randomUUID } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT, UnsecuredJWT, exportJWK, importPKCS8, type JWK, type KeyInput } from 'jose';
import type { Config } from '../../config.ts';
import { suiteKey } from '../forge.ts';
import type { MethodClient, MethodFault, MethodRequest, TokenMethod } from './method.ts';
import type { Exchange } from '../../http.ts';
import { ASSERTION_FAULTS, attackRow, type AssertionFault } from '../attacks/catalogue.ts';
import { JWT_ATTACKS, sentAt, type JwtAttack } from '../attacks/jwt.ts';
import { runSkip } from '../../skip-record.ts';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export { ASSERTION_FAULTS, type AssertionFault } from '../attacks/catalogue.ts';

const registered = new Map<string, Promise<KeyInput>>();
/** The audience the tenant took for a client's genuine assertion, once tried (ASSERTION.accept). */
const taken = new Map<string, { aud: string; from: string; tried: number }>();

/** The audience assertions are signed for: the one taken, else the first to try. */
function audienceOf(cfg: Config): { aud: string; from: string } {
  return taken.get(cfg.auth.pkjwt?.id ?? '') ?? cfg.auth.assertionAudiences[0]!;
}

/** A client assertion for the configured private_key_jwt client, optionally with one fault; a fresh jti unless given. */
export async function clientAssertion(
  cfg: Config,
  fault?: AssertionFault,
  jti: string = randomUUID(),
  audience: string = audienceOf(cfg).aud,
): Promise<string> {
  const pk = cfg.auth.pkjwt;
  if (!pk) throw new Error('suite bug: clientAssertion without a private_key_jwt client');
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: pk.id,
    sub: fault === 'iss-not-sub' ? `${pk.id}-other` : pk.id,
    aud: fault === 'wrong-aud' ? wrongAudience(cfg.auth.assertionAudiences.map((a) => a.aud)) : audience,
    iat: fault === 'expired' ? now - 1200 : now,
    exp: fault === 'expired' ? now - 600 : now + 120,
    jti,
  };
  if (fault === 'no-sub') delete claims.sub;
  if (fault === 'alg-none') return new UnsecuredJWT(claims).encode();
  let key: Promise<KeyInput>;
  if (fault === 'foreign-key')
    key = suiteKey(); // the one the forged tokens carry
  else {
    let k = registered.get(pk.keyFile);
    if (!k) registered.set(pk.keyFile, (k = importPKCS8(readFileSync(pk.keyFile, 'utf8'), 'RS256')));
    key = k;
  }
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await key);
}

/** Another tenant's token endpoint: none of the audiences the suite tries, whichever was taken. */
function wrongAudience(right: string[]): string {
  const other = 'https://another-tenant.example.test/oauth/token';
  return right.includes(other) ? 'https://yet-another-tenant.example.test/oauth/token' : other;
}

/** The body of a client_credentials request authenticated by a client assertion. */
function assertionBody(cfg: Config, assertion: string): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: cfg.auth.pkjwt!.id,
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: assertion,
    audience: cfg.audience,
  };
}

export const ASSERTION: TokenMethod = {
  id: 'client-assertion',
  name: 'Client ID and client assertion',
  clause: 'auth.method.client-assertion',
  refusedClause: 'auth.method.client-assertion.refused',
  acceptClauses: ['auth.method.client-assertion.replay', 'auth.method.param-names'],
  needs: runSkip(
    { setting: 'IDM_PKJWT_CLIENT_ID' },
    'needs a private_key_jwt client: set IDM_PKJWT_CLIENT_ID and IDM_PKJWT_KEY_FILE',
  ),
  clients: (cfg) => (cfg.auth.pkjwt ? [{ id: cfg.auth.pkjwt.id }] : []),
  async request(cfg, _c, fault, jti = randomUUID()) {
    const attack = JWT_ATTACKS.find((a) => a.id === fault);
    const assertion = attack
      ? await attacked(cfg, attack)
      : await clientAssertion(cfg, fault as AssertionFault | undefined, jti);
    return { data: assertionBody(cfg, assertion), headers: {}, jti };
  },
  faults: [
    ...(Object.entries(ASSERTION_FAULTS) as Array<[AssertionFault, string]>).map(([id, what]) => ({
      id,
      what: `a client assertion ${what}`,
      attack: attackRow('client-assertion', id),
    })),
    // The catalogue's JWT attacks, made from a genuine assertion; the HMAC ones keyed with the
    // client's registered public key (RFC 8725 §2.1), the one the tenant verifies it with.
    ...JWT_ATTACKS.map(
      (a): MethodFault => ({
        id: a.id,
        what: `a client assertion: ${a.what}`,
        clause: a.clause,
        attack: attackRow('client-assertion', a.id),
        unset: (cfg) =>
          sentAt(a, cfg.depth, false)
            ? null
            : runSkip({ setting: 'IDM_DEPTH' }, 'a further variant of its class, sent at IDM_DEPTH=deep'),
      }),
    ),
  ],
  async accept(cfg, c, send) {
    let first: { req: MethodRequest; ex: Exchange } | null = null;
    const all = cfg.auth.assertionAudiences;
    for (const [i, a] of all.entries()) {
      const jti = randomUUID();
      const req = { data: assertionBody(cfg, await clientAssertion(cfg, undefined, jti, a.aud)), headers: {}, jti };
      const ex = await send(req);
      first ??= { req, ex };
      if (ex.answer.issued !== null) {
        taken.set(c.id, { ...a, tried: i + 1 });
        return { req, ex };
      }
    }
    return first!;
  },
  describe: (cfg) => {
    const a = audienceOf(cfg);
    const tried = taken.get(cfg.auth.pkjwt?.id ?? '')?.tried ?? 1;
    return `a signed client assertion (aud ${a.aud}, ${a.from}${
      tried > 1
        ? `; taken after ${tried - 1} refused: ${cfg.auth.assertionAudiences
            .slice(0, tried - 1)
            .map((x) => x.aud)
            .join(', ')}`
        : ''
    })`;
  },
  async besides({ cfg, check, enc, req, ex, send }) {
    check.observe(
      'auth.method.param-names',
      `client_id, client_assertion_type and client_assertion in a ${enc.encoding === 'json' ? 'JSON' : 'form'} body answered ${ex.status}; ${ASSERTION.describe(cfg, { id: '' })}`,
    );
    if (ex.answer.issued === null) return;
    // Whether a used jti may be used again is left open (RFC 7523 §3 lets the server refuse it).
    const again = await send(await replayOf(cfg, req));
    check.observe(
      'auth.method.client-assertion.replay',
      `a second assertion with the same jti answered ${again.status}${again.answer.issued !== null ? ' with a token (replay accepted)' : ''}`,
      again,
    );
  },
};

// Helpers

/** A genuine assertion made into the attack: the registered public key and another genuine assertion as material. */
async function attacked(cfg: Config, a: JwtAttack): Promise<string> {
  const genuine = await clientAssertion(cfg);
  const made = await a.make(genuine, { published: await registeredPublicKey(cfg), other: await clientAssertion(cfg) });
  if (typeof made !== 'string') throw new Error(`suite bug: ${a.id} not made from a client assertion: ${made.notMade}`);
  return made;
}

const publicKeys = new Map<string, Promise<JWK>>();

/** The client's registered public key, derived from its private key file. */
function registeredPublicKey(cfg: Config): Promise<JWK> {
  const file = cfg.auth.pkjwt!.keyFile;
  let k = publicKeys.get(file);
  if (!k) publicKeys.set(file, (k = exportJWK(createPublicKey(readFileSync(file, 'utf8')))));
  return k;
}

/** The same assertion request again, with the accepted one's jti. */
function replayOf(cfg: Config, req: MethodRequest): Promise<MethodRequest> {
  return (ASSERTION.request as (cfg: Config, c: MethodClient, f?: string, jti?: string) => Promise<MethodRequest>)(
    cfg,
    { id: '' },
    undefined,
    req.jti,
  );
}
