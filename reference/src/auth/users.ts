// Users of the database connection and their password check.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { PasswordCheck, UserRecord } from '../types.ts';

/** Username comparison ignores case (it is an email address). */
function findUser(users: UserRecord[], connection: string, username: string): UserRecord | undefined {
  const wanted = username.toLowerCase();
  return users.find((u) => u.connection === connection && u.username.toLowerCase() === wanted);
}

export function passwordCheck(users: UserRecord[]): PasswordCheck {
  return (connection, username, password) => {
    const user = findUser(users, connection, username);
    // Compare digests whether or not the user exists, so both fail alike.
    const expected = createHash('sha256')
      .update(user?.password ?? '\u0000no user')
      .digest();
    const given = createHash('sha256').update(password).digest();
    return timingSafeEqual(expected, given) && user !== undefined ? user : undefined;
  };
}
