import { activationDetailsSchema, activationStatusOf } from './activation';
import type { Activation } from './activation';

const VALID = {
  legalName: 'Boutique Adjoua SARL',
  registrationNumber: 'CI-ABJ-03-2024-B12-01234',
  contactName: 'Adjoua Konan',
  contactEmail: 'adjoua@boutique.example',
  contactPhone: '+225 07 00 00 01 00',
};

/** The fields refused, each with its message, or the parsed details. */
function parse(overrides: Partial<Record<keyof typeof VALID, string>>) {
  const result = activationDetailsSchema.safeParse({ ...VALID, ...overrides });
  return result.success
    ? { ok: result.data }
    : { refused: result.error.issues.map((issue) => [issue.path.join('.'), issue.message]) };
}

describe('activationDetailsSchema', () => {
  it('trims the texts and writes the phone number without separators', () => {
    expect(
      parse({ legalName: '  Boutique Adjoua SARL ', contactEmail: ' adjoua@boutique.example ' }),
    ).toEqual({ ok: { ...VALID, contactPhone: '+2250700000100' } });
    expect(parse({ contactPhone: '+33 (1) 23-45-67.89' })).toMatchObject({
      ok: { contactPhone: '+33123456789' },
    });
  });

  it.each([
    ['legalName', '', 'must not be empty'],
    ['legalName', '   ', 'must not be empty'],
    ['legalName', 'x'.repeat(201), 'must be at most 200 characters'],
    ['legalName', 'Adjoua\nSARL', 'must not contain control characters'],
    ['contactName', 'x'.repeat(101), 'must be at most 100 characters'],
    ['contactName', '', 'must not be empty'],
  ] as const)('refuses %s %j: %s', (field, value, message) => {
    expect(parse({ [field]: value })).toEqual({ refused: [[field, message]] });
  });

  it('counts names in characters as read, not in UTF-16 units', () => {
    expect(parse({ legalName: '🙂'.repeat(200) })).toMatchObject({ ok: { legalName: '🙂'.repeat(200) } });
  });

  it.each(['CI-ABJ-2024-B-12345', 'RC 123/2019', 'B12.345', 'abc'])(
    'accepts the registration number %j',
    (value) => {
      expect(parse({ registrationNumber: value })).toMatchObject({ ok: { registrationNumber: value } });
    },
  );

  it.each(['', 'AB', '-CI-ABJ', 'CI-ABJ-', 'CI_ABJ_2024', 'CI–ABJ', 'x'.repeat(51), 'n°12345'])(
    'refuses the registration number %j',
    (value) => {
      expect(parse({ registrationNumber: value })).toEqual({
        refused: [
          ['registrationNumber', 'must be 3 to 50 letters and digits, with -, /, . or spaces between them'],
        ],
      });
    },
  );

  it.each(['', 'adjoua', 'adjoua@', '@boutique.example', 'adjoua@boutique', 'a b@boutique.example'])(
    'refuses the email address %j',
    (value) => {
      expect(parse({ contactEmail: value })).toEqual({
        refused: [['contactEmail', 'must be an email address such as name@example.com']],
      });
    },
  );

  it('refuses an email address longer than SMTP carries', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(190)}.example`;
    expect(parse({ contactEmail: long })).toEqual({
      refused: [['contactEmail', 'must be at most 254 characters']],
    });
  });

  it.each([
    '',
    '0700000100',
    '+0 700000100',
    '+225 0700',
    '+225 07000001001234567',
    '+225 07 00 AB 01 00',
    '225-07-00',
  ])('refuses the phone number %j', (value) => {
    expect(parse({ contactPhone: value })).toEqual({
      refused: [
        [
          'contactPhone',
          'must be an international number: +, country code and number, e.g. +225 07 00 00 01 00',
        ],
      ],
    });
  });

  it('accepts the longest E.164 number, 15 digits', () => {
    expect(parse({ contactPhone: '+225070000010012' })).toMatchObject({
      ok: { contactPhone: '+225070000010012' },
    });
  });
});

describe('activationStatusOf', () => {
  it('is not_requested without an activation, else the activation status', () => {
    expect(activationStatusOf(undefined)).toBe('not_requested');
    const pending: Activation = {
      status: 'pending_review',
      details: { ...VALID },
      requestedAt: new Date(0),
      approvedAt: null,
    };
    expect(activationStatusOf(pending)).toBe('pending_review');
  });
});
