import type { AuthenticationPage } from '@app/application/collections';
import { currencyInfo } from '@app/domain/accounts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const MESSAGES: Readonly<Record<Exclude<AuthenticationPage['state'], 'open'>, string>> = {
  used: 'This authentication has already been completed. Nothing more to do here.',
  expired: 'This authentication page has expired. Return to the merchant and try again.',
  unavailable: 'Test authentication is only available for sandbox payments.',
  not_found: 'There is no authentication waiting at this address.',
};

/**
 * The simulated issuer's 3-D Secure page (decisions §7): plain HTML, inline styles only, two
 * forms that POST without JavaScript. It names the merchant amount and the card's last four
 * digits, nothing more.
 */
export function renderPage({ state, action }: AuthenticationPage): string {
  const body =
    state === 'open' && action
      ? `<p>Approve the payment of <strong>${escape(formatAmount(action.amount, action.currency))}</strong>` +
        `${action.payment_type_data.last_four_digits ? ` with the card ending in <strong>${escape(action.payment_type_data.last_four_digits)}</strong>` : ''}?</p>` +
        `<p class="ref">Reference: ${escape(action.reference)}</p>` +
        `<form method="post" action="/3ds/${escape(action.id)}/approve"><button type="submit" id="approve">Approve</button></form>` +
        `<form method="post" action="/3ds/${escape(action.id)}/fail"><button type="submit" id="fail">Fail authentication</button></form>`
      : `<p id="state" data-state="${state}">${MESSAGES[state as keyof typeof MESSAGES]}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure test authentication</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{display:inline-block;margin-right:1rem}button{font-size:1rem;padding:.5rem 1rem}.ref{color:#555}</style>
</head><body><h1>Sandbox 3-D Secure</h1>${body}</body></html>`;
}

/** 10000 USD minor units reads "USD 100.00". */
function formatAmount(amount: number, currency: string): string {
  const units = currencyInfo(currency)?.minor_units ?? 0;
  const digits = String(amount).padStart(units + 1, '0');
  return units === 0 ? `${currency} ${digits}` : `${currency} ${digits.slice(0, -units)}.${digits.slice(-units)}`;
}
