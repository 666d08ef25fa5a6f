import { KafkaMessageBus } from './kafka-message-bus';
import { describeMessageBusContract } from './message-bus.contract';

const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim());

if (brokers?.length) {
  describeMessageBusContract(
    'kafka',
    async () => new KafkaMessageBus({ brokers, clientId: 'contract-tests', partitions: 3 }),
    60_000,
  );
} else {
  describe('MessageBus contract: kafka', () => {
    console.warn('MessageBus contract: kafka skipped: KAFKA_BROKERS is not set (e.g. localhost:9092)');
    it.skip('skipped: set KAFKA_BROKERS to run', () => undefined);
  });
}
