// lib/lock.ts: the cross-process mutex (mkdir) under the pacer state and the resource-server
// lock. Mutual exclusion within a process and across two processes (lost updates counted),
// release on error, take-over of a lock whose holder is gone, and no take-over while the
// holder lives.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { acquire, release, sleep, withLock } from '../lib/lock.ts';

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'idm-selftest-lock-')), 'the.lock');
}

async function pendingAfter(p: Promise<unknown>, ms: number): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await sleep(ms);
  return !done;
}

test('in one process: 20 concurrent holders never overlap and no update is lost', async () => {
  const lock = lockPath();
  let holders = 0;
  let maxHolders = 0;
  let counter = 0;
  await Promise.all(
    Array.from({ length: 20 }, () =>
      withLock(lock, async () => {
        holders++;
        maxHolders = Math.max(maxHolders, holders);
        const read = counter;
        await sleep(2); // a read-modify-write with a gap, as the pacer's file update has
        counter = read + 1;
        holders--;
      }),
    ),
  );
  expect(maxHolders).toBe(1);
  expect(counter).toBe(20);
  expect(existsSync(lock), 'released at the end').toBe(false);
});

test('across two processes: 2 × 40 locked read-modify-write increments of one file lose nothing', async () => {
  test.setTimeout(60_000);
  const lock = lockPath();
  const file = join(lock, '..', 'count.txt');
  writeFileSync(file, '0');
  const script = `
    import { readFileSync, writeFileSync } from 'node:fs';
    import { withLock, sleep } from ${JSON.stringify(join(process.cwd(), 'lib', 'lock.ts'))};
    for (let i = 0; i < 40; i++) {
      await withLock(${JSON.stringify(lock)}, async () => {
        const n = Number(readFileSync(${JSON.stringify(file)}, 'utf8'));
        await sleep(1);
        writeFileSync(${JSON.stringify(file)}, String(n + 1));
      });
    }`;
  const run = () =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: process.cwd(),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('close', resolve);
    });
  expect(await Promise.all([run(), run()])).toEqual([0, 0]);
  expect(Number(readFileSync(file, 'utf8'))).toBe(80);
});

test('the lock is released when the guarded function throws', async () => {
  const lock = lockPath();
  await expect(withLock(lock, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(existsSync(lock)).toBe(false);
  expect(await withLock(lock, () => 'again')).toBe('again');
});

test('a lock left by a process that no longer exists is taken over', async () => {
  const lock = lockPath();
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = Number(gone.stdout);
  expect(deadPid).toBeGreaterThan(0);
  mkdirSync(lock);
  writeFileSync(join(lock, 'owner'), String(deadPid));
  await acquire(lock);
  expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(String(process.pid));
  release(lock);
});

test('a lock without an owner file for over a second (holder died mid-acquire) is taken over', async () => {
  const lock = lockPath();
  mkdirSync(lock);
  const past = new Date(Date.now() - 5_000);
  utimesSync(lock, past, past);
  await acquire(lock);
  expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(String(process.pid));
  release(lock);
});

test('a lock held by a live process is waited for, not taken, and acquired once released', async () => {
  const lock = lockPath();
  // Held by a live process other than this one.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), String(holder.pid));
    const acquiring = acquire(lock);
    expect(await pendingAfter(acquiring, 300)).toBe(true);
    expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(String(holder.pid));
    release(lock);
    await acquiring;
    expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(String(process.pid));
    release(lock);
  } finally {
    holder.kill('SIGTERM');
  }
});
