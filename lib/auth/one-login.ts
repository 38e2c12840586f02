// One user's logins never overlap (issue 24): a tenant with brute-force detection may refuse a
// login while another login of the same user is in progress — to the client the same
// `invalid_grant` as a wrong password, so a run whose workers log the one test user in at the same
// moment would get a verdict that flips with scheduling. Every login of a user (the password
// grant, the login walk, the §8 attempts) holds a lock named after the tenant and the user, in the
// run's state folder: across the run's workers, and runs or shards on this machine. Shards on
// other machines log in as their own test user (README, "CI").
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
