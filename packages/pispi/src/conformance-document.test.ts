import {
  DOCUMENT_CANDIDATES,
  DOCUMENT_VARIABLE,
  isCi,
  locateApiBusinessDocument,
  type DocumentLookup,
} from './conformance-document';

const root = '/clone/sika';
const local = '/clone/sika/.sika/pispi/api-business.openapi.json';
const beside = '/clone/shared/pispi/api-business.openapi.json';

function lookup(env: DocumentLookup['env'], present: string[]): DocumentLookup {
  return { env, repositoryRoot: root, exists: (file) => present.includes(file) };
}

describe('isCi', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['', false],
    [undefined, false],
  ])('CI=%p is %p', (value, expected) => {
    expect(isCi({ CI: value })).toBe(expected);
  });
});

describe('locateApiBusinessDocument', () => {
  it('looks in the clone first, then beside it', () => {
    expect(DOCUMENT_CANDIDATES.map((candidate) => candidate.path)).toEqual([
      '.sika/pispi/api-business.openapi.json',
      '../shared/pispi/api-business.openapi.json',
    ]);
    expect(locateApiBusinessDocument(lookup({}, [local, beside]))).toEqual({ kind: 'run', path: local });
    expect(locateApiBusinessDocument(lookup({}, [beside]))).toEqual({ kind: 'run', path: beside });
  });

  it('runs wherever the document is found, in CI too', () => {
    expect(locateApiBusinessDocument(lookup({ CI: 'true' }, [beside]))).toEqual({
      kind: 'run',
      path: beside,
    });
  });

  it('skips outside CI when the document is absent, saying where it looked and what to do', () => {
    const decision = locateApiBusinessDocument(lookup({}, []));
    expect(decision.kind).toBe('skip');
    const reason = decision.kind === 'skip' ? decision.reason : '';
    expect(reason).toContain(local);
    expect(reason).toContain(beside);
    expect(reason).toContain(DOCUMENT_VARIABLE);
    expect(reason).toContain('packages/pispi/README.md');
    expect(reason).toContain('CI=true');
  });

  it('fails under CI=true when the document is absent', () => {
    const decision = locateApiBusinessDocument(lookup({ CI: 'true' }, []));
    expect(decision.kind).toBe('fail');
    const reason = decision.kind === 'fail' ? decision.reason : '';
    expect(reason).toContain('CI is set');
    expect(reason).toContain(local);
    expect(reason).toContain(DOCUMENT_VARIABLE);
  });

  it('uses the variable alone when it is set, relative paths from the repository root', () => {
    const named = '/elsewhere/business.json';
    expect(locateApiBusinessDocument(lookup({ [DOCUMENT_VARIABLE]: named }, [named, local]))).toEqual({
      kind: 'run',
      path: named,
    });
    expect(
      locateApiBusinessDocument(
        lookup({ [DOCUMENT_VARIABLE]: 'docs/business.json' }, ['/clone/sika/docs/business.json']),
      ),
    ).toEqual({ kind: 'run', path: '/clone/sika/docs/business.json' });
  });

  it('fails, in CI or not, when the variable names a file that does not exist', () => {
    for (const env of [{}, { CI: 'true' }]) {
      const decision = locateApiBusinessDocument(
        lookup({ ...env, [DOCUMENT_VARIABLE]: '/nowhere.json' }, [local]),
      );
      expect(decision).toEqual({
        kind: 'fail',
        reason: `${DOCUMENT_VARIABLE} names /nowhere.json, which does not exist.`,
      });
    }
  });

  it('treats an empty variable as unset', () => {
    expect(locateApiBusinessDocument(lookup({ [DOCUMENT_VARIABLE]: ' ' }, [local]))).toEqual({
      kind: 'run',
      path: local,
    });
  });
});
