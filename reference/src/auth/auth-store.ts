// In-memory authentication state: authorization codes, refresh tokens, login transactions
// (the /authorize parameters while the login pages are shown), logouts waiting for their
// confirmation, the dev outbox and the passwordless one-time codes still redeemable.
import type { AuthStore, OutboxMessage, SentCode } from '../types.ts';

const OUTBOX_MAX = 200;

export function memoryAuthStore(now: () => number): AuthStore {
  const codes = new Map<string, Parameters<AuthStore['saveCode']>[1]>();
  const refresh = new Map<string, Parameters<AuthStore['saveRefreshToken']>[1]>();
  const transactions = new Map<string, Parameters<AuthStore['saveLoginTransaction']>[1]>();
  const logouts = new Map<string, Parameters<AuthStore['saveLogoutRequest']>[1]>();
  const outbox: OutboxMessage[] = [];
  const sent = new Map<string, SentCode>();
  const recipientKey = (connection: string, recipient: string) => `${connection}|${recipient.toLowerCase()}`;
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
    saveSentCode(connection, recipient, code) {
      prune(sent);
      sent.set(recipientKey(connection, recipient), { ...code });
    },
    getSentCode: (connection, recipient) => live(sent.get(recipientKey(connection, recipient))),
    deleteSentCode: (connection, recipient) => void sent.delete(recipientKey(connection, recipient)),
  };
}
