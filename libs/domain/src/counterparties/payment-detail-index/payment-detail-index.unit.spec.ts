import { specFor } from '../../shared/testing/given-when-then';
import { paymentDetailIndexDecider } from './payment-detail-index';

const given = specFor(paymentDetailIndexDecider);
const indexed = {
  type: 'PaymentDetailIndexed' as const,
  data: { payment_detail_id: 'pmd_1', counterparty_id: 'cpt_1' },
};
const index = (counterparty_id: string) => ({
  type: 'IndexPaymentDetail' as const,
  payment_detail_id: 'pmd_1',
  counterparty_id,
});

describe('payment detail index', () => {
  describe('no entry yet', () => {
    it('points the id at its counterparty', () => given([]).when(index('cpt_1')).then([indexed]));
  });
  describe('indexed', () => {
    it('indexing again for the same counterparty records nothing', () =>
      given([indexed]).when(index('cpt_1')).then([]));
    it('refuses another counterparty', () => given([indexed]).when(index('cpt_2')).thenError('payment_detail_indexed'));
  });
});
