import { systemSocketProbe, throughSocket, usableDatabaseSocket, type SocketProbe } from '../database-socket';

const SERVICE_URL = 'postgres://sika_payments:secret@127.0.0.1:5432/sika';

/** A machine whose sockets are `present`, where a login works through the directories in `accepting`. */
function machine(present: string[], accepting: string[]): SocketProbe & { tried: string[] } {
  const tried: string[] = [];
  return {
    tried,
    exists: (path) => present.includes(path),
    canLogIn: async (url) => {
      tried.push(url);
      return accepting.includes(new URL(url).searchParams.get('host') ?? '');
    },
  };
}

describe('the Unix socket of the local Postgres', () => {
  it('keeps the login, the database and the options, and adds the socket directory as host', () => {
    expect(throughSocket(`${SERVICE_URL}?sslmode=disable`, '/var/run/postgresql')).toBe(
      'postgres://sika_payments:secret@127.0.0.1:5432/sika?sslmode=disable&host=%2Fvar%2Frun%2Fpostgresql',
    );
  });

  it('is used when its file exists and the service role logs in through it', async () => {
    const probe = machine(['/var/run/postgresql/.s.PGSQL.5432'], ['/var/run/postgresql']);

    await expect(usableDatabaseSocket({}, SERVICE_URL, probe)).resolves.toBe('/var/run/postgresql');
    expect(probe.tried).toEqual([throughSocket(SERVICE_URL, '/var/run/postgresql')]);
  });

  it('is looked for at the port of the server, in the next directory when the first has none', async () => {
    const probe = machine(['/tmp/.s.PGSQL.6543'], ['/tmp']);

    await expect(
      usableDatabaseSocket({}, 'postgres://sika_payments:secret@localhost:6543/sika', probe),
    ).resolves.toBe('/tmp');
  });

  it('is not used when the login through it is refused (Debian’s peer rule): the services stay on TCP', async () => {
    const probe = machine(['/var/run/postgresql/.s.PGSQL.5432'], []);

    await expect(usableDatabaseSocket({}, SERVICE_URL, probe)).resolves.toBeUndefined();
  });

  it('is not looked for when the environment names the server', async () => {
    const probe = machine(['/var/run/postgresql/.s.PGSQL.5432'], ['/var/run/postgresql']);

    for (const env of [{ DATABASE_URL: SERVICE_URL }, { DATABASE_ADMIN_URL: SERVICE_URL }]) {
      await expect(usableDatabaseSocket(env, SERVICE_URL, probe)).resolves.toBeUndefined();
    }
    expect(probe.tried).toEqual([]);
  });

  it('is tried with a real login: one that Postgres accepts, and one where nothing listens', async () => {
    const admin = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

    await expect(systemSocketProbe.canLogIn(admin)).resolves.toBe(true);
    await expect(systemSocketProbe.canLogIn('postgres://postgres@127.0.0.1:1/postgres')).resolves.toBe(false);
  });
});
