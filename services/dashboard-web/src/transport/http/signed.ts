import type { Scope } from '@sika/platform/pure';
import type { Request, Response } from 'express';

import type { UserRecord } from '../../app/ports';
import type { MerchantContext, Section } from '../../views/layout';

/** What a signed-in page of a mode has once the session and the merchant are read. */
export interface Signed {
  scope: Scope;
  user: UserRecord;
  /** The session cookie's value, to mark it recently authenticated once the password is typed again. */
  sessionToken: string;
  /** Whether the password was typed recently enough for an action that could redirect money. */
  recentlyAuthenticated: boolean;
  context: (section: Section) => MerchantContext;
}

export const signedOf = (response: Response): Signed => response.locals['signed'] as Signed;

/** Confirmations after a post/redirect/get, named in the query so a reload shows them again harmlessly. */
const DONE = [
  'saved',
  'test_sent',
  'resent',
  'canceled',
  'simulated',
  'account_registered',
  'account_confirmed',
  'schedule_saved',
  'payout_created',
  'activation_requested',
] as const;
export type Done = (typeof DONE)[number];

export function doneOf(request: Request): Done | undefined {
  const done = request.query['done'];
  return DONE.find((name) => name === done);
}
