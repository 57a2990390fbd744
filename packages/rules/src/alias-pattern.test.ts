import { CUSTOMER_ALIAS_PATTERN } from './alias';
import { characterCount, TEXT_LIMITS } from './text';

/** What the API's validator and its OpenAPI document (pattern and maxLength) accept. */
const isCustomerAlias = (alias: string) =>
  characterCount(alias) <= TEXT_LIMITS.customerAlias && CUSTOMER_ALIAS_PATTERN.test(alias);

describe('customer_alias formats (spec §2.2)', () => {
  it.each([
    '+225 0000000001',
    '+2250700000001',
    '+225 07 00 00 00 01',
    '+225.07.00.00.00.01',
    '+225-0700-000-001',
    '+22507000000',
    '+2250700000000',
    'shop-42',
    'A',
    'x'.repeat(36),
  ])('accepts %p', (alias) => {
    expect(isCustomerAlias(alias)).toBe(true);
  });

  it.each([
    '',
    '+225',
    '+225 0700000',
    '+225 07000000011',
    '225 0700000001',
    '+225 07/00/00/00/01',
    '+225_0700000001',
    'x'.repeat(37),
    'jean.dupont',
    'jean dupont',
    'jean@bank',
    `+225 ${'0 '.repeat(18)}`,
  ])('refuses %p', (alias) => {
    expect(isCustomerAlias(alias)).toBe(false);
  });
});
