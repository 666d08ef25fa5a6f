/** The log, republished for other deployments. Adapters: embedded SQLite queue and Kafka. */

export interface BusMessage {
  /** Partitioning key: the stream id, so one resource's events stay in order. */
  readonly key: string;
  readonly value: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ConsumedMessage extends BusMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

export interface SubscribeOptions {
  readonly fromBeginning?: boolean;
  readonly onError?: (error: unknown) => void;
}

export interface BusSubscription {
  stop(): Promise<void>;
}

export interface MessageBus {
  /** Resolves once the bus has durably accepted every message, in order per key. */
  publish(topic: string, messages: readonly BusMessage[]): Promise<void>;
  /**
   * Joins consumer group `groupId`: each message reaches one member of the group, at least once.
   * A message is committed only after its handler resolves; a throwing handler stops the member.
   */
  subscribe(
    topic: string,
    groupId: string,
    handler: (message: ConsumedMessage) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<BusSubscription>;
  /**
   * As `subscribe`, but the handler gets, in order, every message the member has read at once (at
   * least one), and the batch is committed once it resolves: a consumer that writes what it reads
   * makes one durable write for many messages. A throwing handler stops the member, and the whole
   * batch is delivered again.
   */
  subscribeBatches(
    topic: string,
    groupId: string,
    handler: (messages: readonly ConsumedMessage[]) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<BusSubscription>;
  close(): Promise<void>;
}

export const MESSAGE_BUS = Symbol('MESSAGE_BUS');

/** The topic carrying every domain event, keyed by stream id. */
export const DOMAIN_EVENTS_TOPIC = 'payments.domain-events';
