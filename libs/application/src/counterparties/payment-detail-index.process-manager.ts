import type { CommandBus } from '@nestjs/cqrs';
import type { PaymentDetailData } from '@app/domain';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import type { ProcessManager } from '@app/platform/log-processing';
import { IndexPaymentDetailCommand } from './index-payment-detail/index-payment-detail.command';

/**
 * The backstop of the payment-detail index: details added before the index existed, or whose
 * request died between the detail and its index, are indexed from the log. Indexing twice is a no-op.
 */
export function paymentDetailIndexManager(commands: CommandBus): ProcessManager {
  return {
    name: 'payment-detail-index',
    handles: ['PaymentDetailAdded'],
    async handle(event: RecordedEvent) {
      const data = event.data as unknown as PaymentDetailData;
      await commands.execute(
        new IndexPaymentDetailCommand(
          reactionContext(event, 'payment-detail-index'),
          data.payment_detail_id,
          data.counterparty_id,
        ),
      );
    },
  };
}
