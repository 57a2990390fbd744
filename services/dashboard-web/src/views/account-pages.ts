import { markup } from '@sika/web';

import { csrfInput, field, pageHeading, publicLayout, type FieldProblem, type PageContext } from './layout';

export interface AccountFormState {
  values?: Readonly<Record<string, string>>;
  problem?: FieldProblem;
  /** A message for the whole form (wrong password, too many attempts). */
  notice?: string;
}

export function renderSignIn(context: PageContext, state: AccountFormState = {}): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.account.signInTitle,
    markup`${pageHeading(copy, copy.account.signInTitle, state.problem ?? (state.notice === undefined ? undefined : { param: '', message: state.notice }))}
<form method="post" action="/signin" class="card" novalidate>${csrfInput(context)}
${field({ name: 'email', label: copy.account.email, type: 'email', value: state.values?.['email'] ?? '', autocomplete: 'username', required: true, problem: state.problem })}
${field({ name: 'password', label: copy.account.password, type: 'password', autocomplete: 'current-password', required: true, problem: state.problem })}
<button type="submit" class="button primary">${copy.account.signIn}</button>
</form>
<p>${copy.account.noAccount} <a href="/signup">${copy.account.signUpTitle}</a></p>
<p class="hint">${copy.account.forgotten}</p>`,
  );
}

export function renderSignUp(context: PageContext, state: AccountFormState = {}): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.account.signUpTitle,
    markup`${pageHeading(copy, copy.account.signUpTitle, state.problem ?? (state.notice === undefined ? undefined : { param: '', message: state.notice }))}
<form method="post" action="/signup" class="card" novalidate>${csrfInput(context)}
${field({ name: 'business_name', label: copy.account.businessName, value: state.values?.['business_name'] ?? '', autocomplete: 'organization', required: true, problem: state.problem })}
${field({ name: 'email', label: copy.account.email, type: 'email', value: state.values?.['email'] ?? '', autocomplete: 'email', required: true, problem: state.problem })}
${field({ name: 'password', label: copy.account.password, type: 'password', hint: copy.account.passwordHint, autocomplete: 'new-password', required: true, problem: state.problem })}
<button type="submit" class="button primary">${copy.account.signUp}</button>
</form>
<p>${copy.account.haveAccount} <a href="/signin">${copy.account.signIn}</a></p>`,
  );
}

/**
 * Right after a sign-up, whether the address was new or already had an account: the same page, so that it
 * never tells who has an account (the email says the rest to the address's owner).
 */
export function renderSignUpReceived(context: PageContext): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.welcome.title,
    markup`<h1>${copy.welcome.title}</h1>
<p>${copy.welcome.intro}</p>
<p><a class="button primary" href="/signin">${copy.welcome.next}</a></p>`,
  );
}

export function renderReset(
  context: PageContext,
  token: string,
  email: string,
  problem?: FieldProblem,
): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.account.resetTitle,
    markup`${pageHeading(copy, copy.account.resetTitle, problem)}
<p>${copy.account.resetFor(email)}</p>
<form method="post" action="/reset/${token}" class="card" novalidate>${csrfInput(context)}
${field({ name: 'password', label: copy.account.newPassword, type: 'password', hint: copy.account.passwordHint, autocomplete: 'new-password', required: true, problem })}
<button type="submit" class="button primary">${copy.account.resetSubmit}</button>
</form>`,
  );
}

export function renderResetInvalid(context: PageContext): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.account.resetTitle,
    markup`<h1>${copy.account.resetTitle}</h1>
<p class="problem" role="alert">${copy.account.resetInvalid}</p>
<p><a href="/signin">${copy.account.signIn}</a></p>`,
  );
}
