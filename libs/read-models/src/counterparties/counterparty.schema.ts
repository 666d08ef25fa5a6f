import {
  arrayOf,
  constant,
  country2,
  currency,
  ms,
  nullable,
  obj,
  oneOf,
  oneOfValues,
  str,
  stringMap,
  successEnvelope,
  type Infer,
} from '../schema-dsl';
import { BANK_SCHEMES } from '@app/domain';

const address = obj({
  line1: str(),
  line2: nullable(str()),
  city: str(),
  state_or_province: nullable(str()),
  postal_code: nullable(str()),
  country: country2(),
});
const profileBase = {
  relationship: nullable(str()),
  email: nullable(str()),
  address: nullable(address),
  identification: arrayOf(obj({ type: oneOfValues(['P', 'D', 'N', 'L']), number: str(), issuing_country: country2() })),
  phone: nullable(
    obj({
      number: str('E.164'),
      type: oneOfValues(['mobile', 'work', 'home', 'other']),
      country: nullable(country2()),
    }),
  ),
};

/** The counterparty as the API shows it: the OpenAPI component `Counterparty`, and the type its presenter returns. */
export const counterpartySchema = obj({
  id: str('cpt_…'),
  object: constant('counterparty'),
  entity_id: str(),
  type: oneOfValues(['individual', 'business']),
  nickname: str(),
  status: oneOfValues(['active', 'inactive']),
  profile: oneOf(
    [
      obj({ first_name: str(), last_name: str(), ...profileBase }, { description: 'Individual' }),
      obj({ legal_name: str(), trading_name: nullable(str()), ...profileBase }, { description: 'Business' }),
    ],
    'Shape depends on `type`',
  ),
  meta: stringMap(),
  created: ms(),
  updated: ms(),
});

export type CounterpartyBody = Infer<typeof counterpartySchema>;

/** A bank account lookup's answer: the OpenAPI component `CounterpartyLookup`, and the type presentLookup returns. */
export const counterpartyLookupSchema = successEnvelope(
  obj({
    account_number: str(),
    account_name: str(),
    bank_code: str(),
    bank_name: nullable(str()),
    scheme: oneOfValues(BANK_SCHEMES),
    country: str(),
    currency: currency(),
  }),
  'The account is valid; its holder and bank',
);

export type CounterpartyLookupBody = Infer<typeof counterpartyLookupSchema>;
