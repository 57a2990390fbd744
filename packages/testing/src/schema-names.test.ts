import { assertPlainIdentifier, testSchemaName, withSearchPath } from './schema-names';

describe('testSchemaName', () => {
  it('is t_ followed by a random lowercase suffix', () => {
    expect(testSchemaName()).toMatch(/^t_[a-z0-9]{10}$/);
  });

  it('carries a sanitised prefix naming the test', () => {
    expect(testSchemaName('Outbox relay / SIGKILL')).toMatch(/^t_outbox_relay_sigkill_[a-z0-9]{10}$/);
  });

  it('stays a valid identifier whatever the prefix', () => {
    const name = testSchemaName('x'.repeat(200));
    expect(() => assertPlainIdentifier(name)).not.toThrow();
  });

  it('differs on every call', () => {
    expect(new Set(Array.from({ length: 100 }, () => testSchemaName())).size).toBe(100);
  });
});

describe('assertPlainIdentifier', () => {
  it.each(['Public', 'a-b', '1abc', 'a"b', '', 'a'.repeat(64)])('rejects %j', (name) => {
    expect(() => assertPlainIdentifier(name)).toThrow(/plain Postgres identifier/);
  });
});

describe('withSearchPath', () => {
  it('adds the search_path option that pg reads from the URL', () => {
    const url = new URL(withSearchPath('postgres://u:p@h:5432/db?sslmode=disable', 't_abc'));
    expect(url.searchParams.get('options')).toBe('-c search_path=t_abc');
    expect(url.searchParams.get('sslmode')).toBe('disable');
    expect(url.pathname).toBe('/db');
  });
});
