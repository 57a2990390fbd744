import { ManualClock } from '@sika/platform';

import { tokenDigest } from '../domain/secret-token';
import { CurrentSession } from './current-session';
import type { AccountStore, SessionRecord, UserRecord } from './ports';
import { openSession } from './sessions';

const HOUR = 3_600_000;
const user: UserRecord = {
  id: 'usr_1',
  merchantId: 'mer_1',
  email: 'awa@boutique.example',
  passwordHash: 'x',
  createdAt: new Date(0),
};

/** The session part of the store, in memory: the rules under test are the use cases'. */
function memoryStore(): AccountStore & { sessions: Map<string, SessionRecord> } {
  const sessions = new Map<string, SessionRecord>();
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    sessions,
    createSession: async (session) => void sessions.set(session.tokenHash, session),
    findSession: async (tokenHash) => {
      const session = sessions.get(tokenHash);
      return session && { ...session, user };
    },
    extendSession: async (tokenHash, expiresAt) => {
      const session = sessions.get(tokenHash);
      if (session) sessions.set(tokenHash, { ...session, expiresAt });
    },
    markSessionAuthenticated: async (tokenHash, at) => {
      const session = sessions.get(tokenHash);
      if (session) sessions.set(tokenHash, { ...session, authenticatedAt: at });
    },
    deleteSession: async (tokenHash) => void sessions.delete(tokenHash),
    findUserByEmail: unused,
    findUserById: unused,
    createUser: unused,
    createPasswordReset: unused,
    consumePasswordReset: unused,
    findPasswordReset: unused,
  };
}

describe('sessions', () => {
  const lifetime = { idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR };

  it('stores only the digest of the cookie, and finds the user by the cookie', async () => {
    const store = memoryStore();
    const clock = new ManualClock(new Date('2026-11-25T08:00:00Z'));
    const { token } = await openSession({ store, clock, lifetime }, user.id);
    expect([...store.sessions.keys()]).toEqual([tokenDigest(token)]);
    await expect(new CurrentSession({ store, clock, lifetime }).execute(token)).resolves.toEqual({
      user,
      recentlyAuthenticated: true,
    });
    await expect(new CurrentSession({ store, clock, lifetime }).execute('forged')).resolves.toBeUndefined();
    await expect(new CurrentSession({ store, clock, lifetime }).execute(undefined)).resolves.toBeUndefined();
  });

  it('slides while used, ends after the idle timeout, and ends at the absolute lifetime anyway', async () => {
    const store = memoryStore();
    const clock = new ManualClock(new Date('2026-11-25T08:00:00Z'));
    const current = new CurrentSession({ store, clock, lifetime });
    const { token } = await openSession({ store, clock, lifetime }, user.id);

    for (let use = 0; use < 15; use += 1) {
      clock.advance(11 * HOUR);
      await expect(current.execute(token)).resolves.toEqual({ user, recentlyAuthenticated: false });
    }
    clock.advance(11 * HOUR);
    await expect(current.execute(token)).resolves.toBeUndefined();

    const idle = await openSession({ store, clock, lifetime }, user.id);
    clock.advance(12 * HOUR);
    await expect(current.execute(idle.token)).resolves.toBeUndefined();
  });

  it('counts as recently authenticated for 5 minutes after the password, then again once it is typed', async () => {
    const store = memoryStore();
    const clock = new ManualClock(new Date('2026-11-25T08:00:00Z'));
    const current = new CurrentSession({ store, clock, lifetime });
    const { token } = await openSession({ store, clock, lifetime }, user.id);
    clock.advance(5 * 60_000 - 1);
    await expect(current.execute(token)).resolves.toEqual({ user, recentlyAuthenticated: true });
    clock.advance(1);
    await expect(current.execute(token)).resolves.toEqual({ user, recentlyAuthenticated: false });
    await store.markSessionAuthenticated(tokenDigest(token), clock.now());
    await expect(current.execute(token)).resolves.toEqual({ user, recentlyAuthenticated: true });
  });

  it('never counts a session without a recorded authentication (opened before the column) as recent', async () => {
    const store = memoryStore();
    const clock = new ManualClock(new Date('2026-11-25T08:00:00Z'));
    const { token } = await openSession({ store, clock, lifetime }, user.id);
    const session = store.sessions.get(tokenDigest(token));
    if (session) store.sessions.set(session.tokenHash, { ...session, authenticatedAt: null });
    await expect(new CurrentSession({ store, clock, lifetime }).execute(token)).resolves.toEqual({
      user,
      recentlyAuthenticated: false,
    });
  });
});
