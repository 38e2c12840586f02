// One user's logins never overlap: a tenant with brute-force detection may refuse a login while
// another of the same user is in progress — to the client the same `invalid_grant` as a wrong
// password, a verdict that would flip with scheduling. Every login of a user holds a lock named after
// the tenant and the user in the run's state folder: across workers, and runs or shards on this
// machine; shards on other machines log in as their own test user (README, "CI").
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../lock.ts';
import { runSettings } from '../config/run.ts';

export async function oneLoginAtATime<T>(authUrl: string, username: string, login: () => Promise<T>): Promise<T> {
  const dir = runSettings().stateDir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = createHash('sha256').update(`${authUrl}\n${username.toLowerCase()}`).digest('hex').slice(0, 16);
  return withLock(join(dir, `login-${key}.lock`), login, { pollMs: 20 });
}
