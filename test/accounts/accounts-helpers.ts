import { bearer, type TestApp } from '../support/test-app';

export async function openAccount(t: TestApp, key: string, body: Record<string, unknown>) {
  const res = await t.http.post('/accounts').set(bearer(key)).send(body);
  if (res.status !== 201) throw new Error(`open account failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    id: string;
    service_ban: string;
    currency: string;
    entity_id: string;
    balance: { available: number; current: number };
  };
}

export const ACC_ID = /^acc_[0-9A-HJKMNP-TV-Z]{26}$/;
export const UNKNOWN_ACCOUNT = 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV';
