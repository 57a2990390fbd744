import { characterCount, isStorableText, STORABLE_TEXT_PATTERN } from './text';

describe('characterCount', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(characterCount('Wax 🧵')).toBe(5);
    expect('Wax 🧵'.length).toBe(6);
  });
});

describe('storable text', () => {
  const storable = [
    '',
    'order-1001',
    'Pagne wax 6 yards — 2 500 FCFA',
    'emoji 🧵 ok',
    'DEL \u007F is not C0',
  ];
  const unstorable = [
    'a\u0000b',
    'line\nbreak',
    'tab\there',
    '\u001F',
    'lone high \uD83E',
    'lone low \uDDF5 here',
    'reversed \uDDF5\uD83E pair',
  ];

  it.each(storable)('accepts %j', (text) => {
    expect(isStorableText(text)).toBe(true);
    expect(STORABLE_TEXT_PATTERN.test(text)).toBe(true);
    expect(new RegExp(STORABLE_TEXT_PATTERN.source, 'u').test(text)).toBe(true);
  });

  it.each(unstorable)('refuses %j', (text) => {
    expect(isStorableText(text)).toBe(false);
    expect(STORABLE_TEXT_PATTERN.test(text)).toBe(false);
    expect(new RegExp(STORABLE_TEXT_PATTERN.source, 'u').test(text)).toBe(false);
  });
});
