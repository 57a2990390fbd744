import { describeServer, isLocalServer, withDatabase, withLogin } from './urls';

describe('database URLs', () => {
  const admin = 'postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable';

  it('switches database and keeps the options', () => {
    expect(withDatabase(admin, 'sika')).toBe('postgres://postgres@127.0.0.1:5432/sika?sslmode=disable');
  });

  it('switches login and encodes what a URL cannot carry as is', () => {
    const url = new URL(withLogin(admin, 'sika_psp', 'p@ss:w/rd%'));
    expect(decodeURIComponent(url.username)).toBe('sika_psp');
    expect(decodeURIComponent(url.password)).toBe('p@ss:w/rd%');
  });

  it('describes the server without credentials', () => {
    expect(describeServer('postgres://u:secret@db:6543/sika')).toBe('db:6543/sika');
  });

  it.each([
    ['postgres://u@127.0.0.1:5432/sika', {}, true],
    ['postgres://u@LocalHost/sika', {}, true],
    ['postgres://u@[::1]:5432/sika', {}, true],
    ['postgres://u@%2Fvar%2Frun%2Fpostgresql/sika', {}, true],
    ['postgres://u@db.internal/sika?host=/var/run/postgresql', {}, true],
    ['postgres:///sika', {}, true],
    ['postgres:///sika', { PGHOST: 'db.internal' }, false],
    ['postgres://u@127.0.0.1/sika?host=db.internal', {}, false],
    ['postgres://u@127.0.0.2:5432/sika', {}, false],
    ['postgres://u@db.internal:5432/sika', {}, false],
  ])('tells a local server (loopback or Unix socket) from another: %s %j', (url, env, local) => {
    expect(isLocalServer(url, env)).toBe(local);
  });
});
