/**
 * The API key lives in this tab's sessionStorage only: gone when the tab closes, never in
 * localStorage, never in a cookie (so no other route or site is ever sent it); the page sends it in
 * the Authorization header to its own origin only.
 */
const KEY = 'payments-dashboard.api-key';

export const session = {
  key(): string | null {
    return sessionStorage.getItem(KEY);
  },
  signIn(key: string): void {
    sessionStorage.setItem(KEY, key);
  },
  signOut(): void {
    sessionStorage.removeItem(KEY);
  },
};
