import { randomBytes } from 'node:crypto';
import { SecretBox } from '@sika/platform';
import { OpenedSecrets } from './opened-secrets';

/** A box that counts what it really decrypts. */
function countingBox(): { box: SecretBox; opens: () => number } {
  const box = new SecretBox(randomBytes(32));
  let count = 0;
  const open = box.open.bind(box);
  box.open = (sealed, context) => {
    count += 1;
    return open(sealed, context);
  };
  return { box, opens: () => count };
}

describe('opened endpoint secrets', () => {
  it('decrypts an endpoint secret once for any number of deliveries', () => {
    const { box, opens } = countingBox();
    const sealed = box.seal('whsec_a', 'whe_1');
    const opened = new OpenedSecrets(box);

    expect([1, 2, 3].map(() => opened.open('whe_1', 'current', sealed))).toEqual([
      'whsec_a',
      'whsec_a',
      'whsec_a',
    ]);
    expect(opens()).toBe(1);
  });

  it('opens the new secret as soon as a roll wrote a new ciphertext', () => {
    const { box } = countingBox();
    const opened = new OpenedSecrets(box);
    opened.open('whe_1', 'current', box.seal('whsec_old', 'whe_1'));

    expect(opened.open('whe_1', 'current', box.seal('whsec_new', 'whe_1'))).toBe('whsec_new');
    expect(opened.open('whe_1', 'previous', box.seal('whsec_old', 'whe_1'))).toBe('whsec_old');
  });

  it('never answers for an endpoint with the secret of another', () => {
    const { box } = countingBox();
    const opened = new OpenedSecrets(box);
    const sealed = box.seal('whsec_a', 'whe_1');
    opened.open('whe_1', 'current', sealed);

    expect(() => opened.open('whe_2', 'current', sealed)).toThrow();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const { box, opens } = countingBox();
    const opened = new OpenedSecrets(box, 2);
    const sealed = ['whe_1', 'whe_2', 'whe_3'].map((id) => box.seal(`whsec_${id}`, id));
    opened.open('whe_1', 'current', sealed[0]!);
    opened.open('whe_2', 'current', sealed[1]!);
    opened.open('whe_1', 'current', sealed[0]!);
    opened.open('whe_3', 'current', sealed[2]!);
    expect(opens()).toBe(3);

    opened.open('whe_1', 'current', sealed[0]!);
    expect(opens()).toBe(3);
    opened.open('whe_2', 'current', sealed[1]!);
    expect(opens()).toBe(4);
  });
});
