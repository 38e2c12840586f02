// POST /passwordless/start (§4.3 "passwordless (connection sms or email)"): sends a one-time
// code (or, for email, a magic link) to the dev outbox instead of a mailbox or phone.
// GET /dev/outbox lists what was "sent" (reference tenant only; a real tenant has none).
// The client authenticates as at the token endpoint: the public client by its ID alone, a
// confidential client with its credentials.
import { randomInt, randomUUID } from 'node:crypto';
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, callerOf, readBody, readQuery } from '../auth/request.ts';

// Deliberately simple: one "@", something on both sides, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

export async function passwordlessStart(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const read = readBody(req, ctx.parts.limits, ['authParams']);
  const started = begin(ctx, 'auth.passwordless', callerOf(read.ok ? read.params : undefined, req));
  if ('limited' in started) return started.limited;
  const { reply } = started;
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const p = read.params;
  const auth = await ctx.parts.authenticateClient({ params: p, headers: req.headers });
  if (!auth.ok) return reply.error(auth.status, auth.error, auth.description);

  // authParams (extra authorization parameters for a link): an object in JSON, its JSON text in a form.
  if (p.authParams !== undefined && !isObjectText(p.authParams)) {
    return reply.error(400, 'invalid_request', 'authParams must be an object');
  }
  const connection = p.connection;
  if (connection !== 'email' && connection !== 'sms') {
    return reply.error(400, 'invalid_request', 'connection must be "email" or "sms"');
  }
  const send = p.send ?? (connection === 'email' ? 'link' : 'code');
  if (send !== 'code' && send !== 'link') return reply.error(400, 'invalid_request', 'send must be "code" or "link"');
  if (connection === 'sms' && send === 'link')
    return reply.error(400, 'invalid_request', 'The sms connection sends codes only');
  const to = connection === 'email' ? p.email : p.phone_number;
  if (connection === 'email' && (to === undefined || !EMAIL.test(to)))
    return reply.error(400, 'invalid_request', 'email must be an email address');
  if (connection === 'sms' && (to === undefined || !E164.test(to))) {
    return reply.error(400, 'invalid_request', 'phone_number must be in E.164 form, e.g. +15555550100');
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = randomUUID();
  const nowMs = ctx.parts.now();
  if (send === 'code') {
    ctx.parts.authStore.addSentCode(connection, to as string, {
      code,
      clientId: auth.client.clientId,
      expiresAtMs: nowMs + ctx.parts.limits.oneTimeCodeLifetimeSeconds * 1000,
    });
  }
  ctx.parts.authStore.addOutboxMessage({
    id,
    connection,
    to: to as string,
    send,
    code,
    ...(send === 'link'
      ? {
          link: `${ctx.publicUrl}/passwordless/verify_redirect?verification_code=${code}&connection=email&email=${encodeURIComponent(to as string)}`,
        }
      : {}),
    clientId: auth.client.clientId,
    at: new Date(nowMs).toISOString(),
  });
  return reply.json(
    200,
    connection === 'email'
      ? { _id: id, email: to, email_verified: false }
      : { _id: id, phone_number: to, phone_verified: false },
  );
}

/** GET /dev/outbox[?to=…]: newest last. */
export function outbox(req: TenantRequest, ctx: AppContext): TenantResponse {
  const started = begin(ctx, 'auth.outbox', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const q = readQuery(req.url);
  if (!q.ok) return reply.error(400, 'invalid_request', q.description);
  const to = q.params.to;
  const messages = ctx.parts.authStore.listOutbox().filter((m) => to === undefined || m.to === to);
  return reply.json(200, { messages });
}

function isObjectText(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}
