import { ManualClock } from './clock';
import { RecentAnswers } from './recent-answers';

function setup(maxEntries = 10) {
  const clock = new ManualClock();
  const answers = new RecentAnswers<string>({ ttlMs: 1_000, maxEntries, clock });
  const asked: string[] = [];
  const ask =
    (key: string, value = `${key}-answer`) =>
    () => {
      asked.push(key);
      return Promise.resolve(value);
    };
  return { clock, answers, asked, ask };
}

describe('RecentAnswers', () => {
  it('reuses an answer for ttlMs, then asks again', async () => {
    const { clock, answers, asked, ask } = setup();

    expect(await answers.get('k', ask('k', 'first'))).toBe('first');
    clock.advance(999);
    expect(await answers.get('k', ask('k', 'second'))).toBe('first');
    clock.advance(1);
    expect(await answers.get('k', ask('k', 'third'))).toBe('third');
    expect(asked).toEqual(['k', 'k']);
  });

  it('asks once for concurrent callers of the same key', async () => {
    const { answers } = setup();
    let calls = 0;
    let answer!: (value: string) => void;
    const ask = () => {
      calls += 1;
      return new Promise<string>((resolve) => (answer = resolve));
    };

    const both = Promise.all([answers.get('k', ask), answers.get('k', ask)]);
    answer('shared');

    expect(await both).toEqual(['shared', 'shared']);
    expect(calls).toBe(1);
  });

  it('keeps no failure: the next caller asks again', async () => {
    const { answers, ask } = setup();

    await expect(answers.get('k', () => Promise.reject(new Error('invalid key')))).rejects.toThrow(
      'invalid key',
    );
    expect(await answers.get('k', ask('k', 'valid'))).toBe('valid');
  });

  it('drops the oldest answer past maxEntries', async () => {
    const { answers, asked, ask } = setup(2);

    await answers.get('a', ask('a'));
    await answers.get('b', ask('b'));
    await answers.get('c', ask('c'));
    await answers.get('b', ask('b'));
    await answers.get('a', ask('a'));

    expect(asked).toEqual(['a', 'b', 'c', 'a']);
  });
});
