// The ways to authenticate of §5.2, one row each (lib/auth/methods/: a row and its building blocks
// in one file), driving the methods spec and the report's §5.2 line. Adding a way at the token
// endpoint is its row (a file of lib/auth/methods/ and a line here), its clients in
// lib/auth/methods/clients.ts, its clauses in contract/clauses.json; then the reference tenant's row
// (reference/src/auth/client-auth.ts) and its mutant.
import type { AuthMethod, TokenMethod } from './methods/method.ts';
import { POST } from './methods/client-secret-post.ts';
import { BASIC } from './methods/client-secret-basic.ts';
import { ASSERTION } from './methods/client-assertion.ts';
import { MTLS } from './methods/mtls.ts';

export type { MethodClient, MethodRequest, TokenMethod } from './methods/method.ts';

/** The ways to authenticate at the token endpoint, in the order §5.2 lists them. */
export const TOKEN_METHODS: readonly TokenMethod[] = [POST, BASIC, ASSERTION, MTLS];

/** Every way of §5.2, as the report lists them (the two that authenticate elsewhere included). */
export const AUTH_METHODS: readonly AuthMethod[] = [
  POST,
  BASIC,
  ASSERTION,
  { name: 'Client ID only (public application)', clause: 'auth.method.client-id-only' },
  MTLS,
  { name: 'OAuth2 access token (Bearer)', clause: 'auth.method.bearer' },
];
