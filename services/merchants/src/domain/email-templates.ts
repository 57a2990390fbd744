/** What an email may tell an account's owner; the proto's EmailKind, by name. */
export const EMAIL_KINDS = [
  'welcome',
  'sign_up_attempt',
  'payout_account_set',
  'payout_account_confirmed',
  'secret_key_renewed',
  'webhook_secret_revealed',
  'webhook_secret_rolled',
  'payout_account_cooling_down',
] as const;

export type EmailKind = (typeof EMAIL_KINDS)[number];

export interface EmailText {
  subject: string;
  body: string;
}

const IF_NOT_YOU =
  'If this was not you, sign in, change your password (ask Sika support for a reset link) and contact Sika ' +
  'support at once.';

/**
 * The fixed text of each kind. Callers choose a kind, never the words, so an email can never carry a secret
 * (a key, a webhook secret, an alias): it says what happened, in which mode and when, nothing more.
 */
export function emailText(kind: EmailKind, livemode: boolean, at: Date): EmailText {
  const mode = livemode ? 'live' : 'test';
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  switch (kind) {
    case 'welcome':
      return {
        subject: 'Welcome to Sika',
        body: `Your Sika account was created with this address on ${when}. Sign in to the dashboard with the password you chose to start in test mode.\n\nIf you did not sign up, ignore this email or tell Sika support.`,
      };
    case 'sign_up_attempt':
      return {
        subject: 'Someone tried to sign up with your address',
        body: `On ${when} someone tried to create a Sika account with this address, which already has one. Nothing was changed on your account.\n\nIf this was you, sign in with your existing password instead. If you forgot it, ask Sika support for a reset link.`,
      };
    case 'payout_account_set':
      return {
        subject: `Your ${mode} payout account was changed`,
        body: `On ${when} a new ${mode} payout account was submitted from your Sika dashboard. It receives payouts once its holder name is confirmed.\n\n${IF_NOT_YOU}`,
      };
    case 'payout_account_confirmed':
      return {
        subject: `Your ${mode} payout account was confirmed`,
        body: `On ${when} the holder name of your ${mode} payout account was confirmed from your Sika dashboard: payouts will go to this account.\n\n${IF_NOT_YOU}`,
      };
    case 'payout_account_cooling_down':
      return {
        subject: 'Your new live payout account is cooling down',
        body: `On ${when} a new live payout account was confirmed from your Sika dashboard. For your safety it receives no payout for 24 hours; your balance stays with Sika until then.\n\n${IF_NOT_YOU}`,
      };
    case 'secret_key_renewed':
      return {
        subject: `Your ${mode} secret key was renewed`,
        body: `On ${when} a new ${mode} secret key was issued from your Sika dashboard; the previous key stops working as chosen then.\n\n${IF_NOT_YOU}`,
      };
    case 'webhook_secret_revealed':
      return {
        subject: `Your ${mode} webhook secret was revealed`,
        body: `On ${when} your ${mode} webhook signing secret was shown in your Sika dashboard.\n\n${IF_NOT_YOU} Then roll the webhook secret.`,
      };
    case 'webhook_secret_rolled':
      return {
        subject: `Your ${mode} webhook secret was rolled`,
        body: `On ${when} your ${mode} webhook signing secret was replaced from your Sika dashboard. Webhooks are now signed with the new secret.\n\n${IF_NOT_YOU}`,
      };
  }
}

/** The relay's answer to a refusal: try again later, up to this many attempts, then `failed`. */
export const EMAIL_MAX_ATTEMPTS = 5;

/** 1 min, 2 min, 4 min, 8 min between attempts. */
export function emailRetryDelayMs(attempts: number): number {
  return 60_000 * 2 ** Math.max(0, attempts - 1);
}
