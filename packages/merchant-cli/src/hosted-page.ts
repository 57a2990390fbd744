/**
 * The customer on the payment's hosted page (its checkout_url) enters an alias, as its form posts it: how a
 * payment gets a second attempt. Refused (the page answers with the form again) → an error with its status.
 */
export async function enterAliasOnHostedPage(checkoutUrl: string, alias: string): Promise<void> {
  const response = await fetch(`${checkoutUrl}/attempts`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(checkoutUrl).origin,
    },
    body: new URLSearchParams({ customer_alias: alias }).toString(),
  });
  if (response.status !== 303) {
    throw new Error(`The hosted page refused the alias ${alias} (HTTP ${response.status}).`);
  }
}
