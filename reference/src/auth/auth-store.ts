// In-memory authentication state: authorization codes, refresh tokens, login transactions
// (the /authorize parameters while the login pages are shown), the sessions and remembered
// consents of the profiles that keep them, logouts waiting for their confirmation, the dev
// outbox and the passwordless one-time codes still redeemable.
import type { AuthStore, OutboxMessage, RecipientCodes } from '../types.ts';

const OUTBOX_MAX = 200;

export function memoryAuthStore(now: () => number): AuthStore {
  const codes = new Map<string, Parameters<AuthStore['saveCode']>[1]>();
  const refresh = new Map<string, Parameters<AuthStore['saveRefreshToken']>[1]>();
  const transactions = new Map<string, Parameters<AuthStore['saveLoginTransaction']>[1]>();
  const logouts = new Map<string, Parameters<AuthStore['saveLogoutRequest']>[1]>();
  const sessions = new Map<string, Parameters<AuthStore['saveSession']>[1]>();
  const consents = new Map<string, Set<string>>();
  const consentKey = (userId: string, clientId: string) => `${userId}|${clientId}`;
  const outbox: OutboxMessage[] = [];
  const sent = new Map<string, RecipientCodes>();
  const recipientKey = (connection: string, recipient: string) => `${connection}|${recipient.toLowerCase()}`;
  const setCodes = (key: string, state: RecipientCodes) =>
    state.codes.length === 0
      ? void sent.delete(key)
      : void sent.set(key, { codes: state.codes.map((c) => ({ ...c })), failedAttempts: state.failedAttempts });
  const liveCodes = (key: string): RecipientCodes | undefined => {
    const state = sent.get(key);
    const t = now();
    const codes = (state?.codes ?? []).filter((c) => c.expiresAtMs > t);
    setCodes(key, { codes, failedAttempts: state?.failedAttempts ?? 0 });
    return codes.length === 0
      ? undefined
      : { codes: codes.map((c) => ({ ...c })), failedAttempts: state?.failedAttempts ?? 0 };
  };
  const prune = <T extends { expiresAtMs: number }>(m: Map<string, T>) => {
    const t = now();
    for (const [k, v] of m) if (v.expiresAtMs <= t) m.delete(k);
  };
  const live = <T extends { expiresAtMs: number }>(v: T | undefined) =>
    v !== undefined && v.expiresAtMs > now() ? { ...v } : undefined;
  return {
    saveCode(code, grant) {
      prune(codes);
      codes.set(code, { ...grant });
    },
    getCode: (code) => live(codes.get(code)),
    deleteCode: (code) => void codes.delete(code),
    saveRefreshToken: (token, grant) => void refresh.set(token, { ...grant }),
    getRefreshToken(token) {
      const g = refresh.get(token);
      return g && { ...g };
    },
    revokeRefreshToken: (token) => void refresh.delete(token),
    saveLoginTransaction(id, tx) {
      prune(transactions);
      transactions.set(id, { ...tx });
    },
    getLoginTransaction: (id) => live(transactions.get(id)),
    deleteLoginTransaction: (id) => void transactions.delete(id),
    saveSession(id, session) {
      prune(sessions);
      sessions.set(id, { ...session });
    },
    getSession: (id) => live(sessions.get(id)),
    rememberConsent(userId, clientId, scopes) {
      const key = consentKey(userId, clientId);
      consents.set(key, new Set([...(consents.get(key) ?? []), ...scopes]));
    },
    consentedScopes: (userId, clientId) => [...(consents.get(consentKey(userId, clientId)) ?? [])],
    saveLogoutRequest(id, request) {
      prune(logouts);
      logouts.set(id, { ...request });
    },
    getLogoutRequest: (id) => live(logouts.get(id)),
    deleteLogoutRequest: (id) => void logouts.delete(id),
    addOutboxMessage(m) {
      outbox.push({ ...m });
      if (outbox.length > OUTBOX_MAX) outbox.shift();
    },
    listOutbox: () => outbox.map((m) => ({ ...m })),
    addSentCode(connection, recipient, code) {
      for (const key of [...sent.keys()]) liveCodes(key); // forget recipients whose codes all expired
      const key = recipientKey(connection, recipient);
      const state = liveCodes(key) ?? { codes: [], failedAttempts: 0 };
      setCodes(key, { ...state, codes: [...state.codes, code] });
    },
    getSentCodes: (connection, recipient) => liveCodes(recipientKey(connection, recipient)),
    setSentCodes: (connection, recipient, state) => setCodes(recipientKey(connection, recipient), state),
  };
}
