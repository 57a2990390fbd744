import { markup } from '@sika/web';

import type { ActivationDetails } from '../app/ports';
import type { ActivationView } from '../app/show-activation';
import {
  csrfInput,
  field,
  merchantLayout,
  noticeLine,
  pageHeading,
  type FieldProblem,
  type MerchantContext,
} from './layout';

/** The form's fields: their names are the parameters merchants names in its refusals. */
export const ACTIVATION_FIELDS = {
  legal_name: 'legalName',
  registration_number: 'registrationNumber',
  contact_name: 'contactName',
  contact_email: 'contactEmail',
  contact_phone: 'contactPhone',
} as const satisfies Record<string, keyof ActivationDetails>;

export function renderActivation(
  context: MerchantContext,
  view: ActivationView,
  { notice, problem, values }: { notice?: string; problem?: FieldProblem; values?: ActivationDetails } = {},
): string {
  const { copy } = context;
  const a = copy.activation;
  const { activation } = view.merchant;
  const given = values ?? activation.details;
  const text = (name: keyof typeof ACTIVATION_FIELDS) => given?.[ACTIVATION_FIELDS[name]] ?? '';
  if (activation.status === 'approved') {
    return merchantLayout(
      context,
      a.title,
      markup`<h1>${a.title}</h1>
${noticeLine(notice)}
<section class="card highlight"><h2>${a.approved}</h2><p>${a.nextSteps}</p>
<ul><li><a href="/live/payouts">${a.livePayouts}</a></li><li><a href="/live/keys">${a.liveKeys}</a></li><li><a href="/live/webhooks">${a.liveWebhooks}</a></li></ul></section>`,
    );
  }
  return merchantLayout(
    context,
    a.title,
    markup`${pageHeading(copy, a.title, problem)}
${noticeLine(notice)}
${activation.status === 'pending_review' && markup`<p class="notice" role="status" data-testid="activation-pending">${a.pending}</p>`}
<p>${a.intro}</p>
<section class="card"><h2>${a.stepDetails}</h2>
<form method="post" action="/live/activate" novalidate>${csrfInput(context)}
${field({ name: 'legal_name', label: a.legalName, value: text('legal_name'), problem, required: true, autocomplete: 'organization' })}
${field({ name: 'registration_number', label: a.registrationNumber, value: text('registration_number'), hint: a.registrationHint, problem, required: true })}
${field({ name: 'contact_name', label: a.contactName, value: text('contact_name'), problem, required: true, autocomplete: 'name' })}
${field({ name: 'contact_email', label: a.contactEmail, type: 'email', value: text('contact_email'), problem, required: true, autocomplete: 'email' })}
${field({ name: 'contact_phone', label: a.contactPhone, type: 'tel', value: text('contact_phone'), hint: a.contactPhoneHint, problem, required: true, autocomplete: 'tel' })}
<button type="submit" class="button primary">${a.submit}</button></form>
</section>`,
  );
}
