import { markup } from '@sika/web';

import {
  csrfInput,
  field,
  merchantLayout,
  pageHeading,
  type FieldProblem,
  type MerchantContext,
} from './layout';

/**
 * The password asked again before an action that could redirect money: the form posts the action's own fields
 * again, with the password, to the same address, so the action goes on once the password is right.
 */
export function renderPasswordPrompt(
  context: MerchantContext,
  state: {
    action: string;
    fields: ReadonlyArray<readonly [string, string]>;
    problem?: FieldProblem | undefined;
  },
): string {
  const { copy } = context;
  const words = copy.recentAuthentication;
  return merchantLayout(
    context,
    words.title,
    markup`${pageHeading(copy, words.title, state.problem)}
<p>${words.why}</p>
<form method="post" action="${state.action}" class="card" novalidate>${csrfInput(context)}${state.fields.map(
      ([name, value]) => markup`<input type="hidden" name="${name}" value="${value}">`,
    )}
${field({ name: 'password', label: copy.account.password, type: 'password', autocomplete: 'current-password', required: true, problem: state.problem })}
<button type="submit" class="button primary">${words.submit}</button>
</form>`,
  );
}
