import { AppError } from '@sika/platform';

import { ChangeNotice } from './change-notice';
import type { Merchants } from './ports';

const SCOPE = { merchantId: 'mer_3kTMd9Qx0bW7vYcN1LzR8aPf', livemode: true };
const OWNER = { email: 'awa@boutique.example' };

/** merchants' outbox of emails, remembered in order. */
function recordingMerchants() {
  const calls: string[] = [];
  const merchants = {
    recordEmail: async (email: { kind: string; sendAfterSeconds: number }) => {
      calls.push(`record ${email.kind} after ${email.sendAfterSeconds}s`);
      return 'eml_1';
    },
    cancelEmail: async (emailId: string) => void calls.push(`cancel ${emailId}`),
  } as unknown as Merchants;
  return { calls, notice: new ChangeNotice({ peers: { merchants }, holdSeconds: 30 }) };
}

describe('ChangeNotice', () => {
  it('records the email, held, before the change is made', async () => {
    const { calls, notice } = recordingMerchants();
    const answer = await notice.around(SCOPE, OWNER, 'webhook_secret_rolled', async () => {
      calls.push('change');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(calls).toEqual(['record webhook_secret_rolled after 30s', 'change']);
  });

  it('withdraws it when the service refused the change (nothing changed)', async () => {
    const { calls, notice } = recordingMerchants();
    const refusal = new AppError('parameter_invalid', 'No.', { param: 'holder_name' });
    await expect(
      notice.around(SCOPE, OWNER, 'payout_account_confirmed', () => Promise.reject(refusal)),
    ).rejects.toBe(refusal);
    expect(calls).toEqual(['record payout_account_confirmed after 30s', 'cancel eml_1']);
  });

  it('keeps it when the outcome is unknown (the change may have committed)', async () => {
    const { calls, notice } = recordingMerchants();
    const outage = new AppError('service_unavailable', 'Later.');
    await expect(
      notice.around(SCOPE, OWNER, 'payout_account_set', () => Promise.reject(outage)),
    ).rejects.toBe(outage);
    expect(calls).toEqual(['record payout_account_set after 30s']);
  });
});
