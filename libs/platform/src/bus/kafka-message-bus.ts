import { readFileSync } from 'node:fs';
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type ConsumerRunConfig,
  type KafkaMessage,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import { logger } from '../logging/logger';
import type { BusMessage, BusSubscription, ConsumedMessage, MessageBus, SubscribeOptions } from './message-bus.port';
import { retryRetriable } from './retry-retriable';

export interface KafkaBusOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Partitions of a topic this adapter creates; keys spread over them, each key stays on one. */
  readonly partitions?: number;
  readonly replicationFactor?: number;
  /** The brokers' CA (PEM file): TLS to every broker, verified against it. */
  readonly tlsCaFile?: string;
}

/**
 * Kafka adapter. The producer is idempotent with acks from all in-sync replicas and one request
 * in flight, so a retried send neither duplicates nor reorders a key's messages. Consumers commit
 * offset+1 only after the handler resolved: at-least-once, never at-most-once.
 */
export class KafkaMessageBus implements MessageBus {
  private readonly kafka: Kafka;
  private producer: Promise<Producer> | null = null;
  private admin: Promise<Admin> | null = null;
  private readonly topics = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<BusSubscription>();

  constructor(private readonly options: KafkaBusOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      ssl: options.tlsCaFile ? { ca: [readFileSync(options.tlsCaFile, 'utf8')], rejectUnauthorized: true } : undefined,
      logLevel: logLevel.WARN,
      logCreator: () => logToPino,
    });
  }

  async publish(topic: string, messages: readonly BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.ensureTopic(topic);
    const producer = await this.connectedProducer();
    await producer.send({
      topic,
      acks: -1,
      messages: messages.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } })),
    });
  }

  subscribe(
    topic: string,
    groupId: string,
    handler: (message: ConsumedMessage) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<BusSubscription> {
    return this.join(topic, groupId, options, (consumer, guarded) => ({
      eachMessage: async ({ partition, message }) => {
        if (!(await guarded(() => handler(consumed(topic, partition, message))))) return;
        await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
      },
    }));
  }

  /** kafkajs's `eachBatch`: what one fetch brought of a partition, committed once after the handler. */
  subscribeBatches(
    topic: string,
    groupId: string,
    handler: (messages: readonly ConsumedMessage[]) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<BusSubscription> {
    return this.join(topic, groupId, options, (consumer, guarded) => ({
      eachBatch: async ({ batch }) => {
        if (!batch.messages.length) return;
        if (!(await guarded(() => handler(batch.messages.map((m) => consumed(topic, batch.partition, m)))))) return;
        const last = batch.messages[batch.messages.length - 1];
        await consumer.commitOffsets([
          { topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
        ]);
      },
    }));
  }

  /**
   * Joins the group and runs what `handlers` makes; `guarded` runs the subscriber's handler and
   * says whether it resolved. After a failure the member is leaving: it reports the error, stops,
   * and leaves what it fetched uncommitted for the next member.
   */
  private async join(
    topic: string,
    groupId: string,
    options: SubscribeOptions,
    handlers: (
      consumer: Consumer,
      guarded: (work: () => Promise<void>) => Promise<boolean>,
    ) => Pick<ConsumerRunConfig, 'eachMessage' | 'eachBatch'>,
  ): Promise<BusSubscription> {
    await this.ensureTopic(topic);
    if (!options.fromBeginning) await retryRetriable(() => this.startNewGroupAtHead(topic, groupId));
    const consumer = this.kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? false });
    const joined = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => resolve());
      consumer.on(consumer.events.CRASH, (event) => reject(event.payload.error));
    });
    let failed = false;
    let stopping: Promise<void> | null = null;
    const subscription: BusSubscription = {
      stop: () => {
        this.subscriptions.delete(subscription);
        stopping ??= consumer.disconnect();
        return stopping;
      },
    };
    this.subscriptions.add(subscription);
    const guarded = async (work: () => Promise<void>): Promise<boolean> => {
      if (failed) return false;
      try {
        await work();
        return true;
      } catch (error) {
        failed = true;
        // Disconnecting waits for this callback, so it cannot be awaited from inside it.
        setImmediate(() => void subscription.stop());
        if (options.onError) options.onError(error);
        else logger.error({ err: error, topic, groupId }, 'bus consumer stopped');
        return false;
      }
    };
    await consumer.run({ autoCommit: false, ...handlers(consumer, guarded) });
    try {
      await joined;
    } catch (error) {
      await subscription.stop();
      throw error;
    }
    return subscription;
  }

  /**
   * Kafka resolves "latest" lazily, at the group's first fetch, and only remembers it once
   * something is committed; a new group that should start at the head gets the head committed
   * now, so messages published after subscribe() resolved, or while it is stopped, are not lost.
   */
  private async startNewGroupAtHead(topic: string, groupId: string): Promise<void> {
    const admin = await this.connectedAdmin();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    if (committed && committed.partitions.some((p) => p.offset !== '-1')) return;
    const head = await admin.fetchTopicOffsets(topic);
    await admin.setOffsets({
      groupId,
      topic,
      partitions: head.map((p) => ({ partition: p.partition, offset: p.high })),
    });
  }

  private ensureTopic(topic: string): Promise<void> {
    let pending = this.topics.get(topic);
    if (!pending) {
      pending = this.connectedAdmin().then(async (admin) => {
        // Listing first keeps the broker from logging a creation error for every existing topic;
        // createTopics still tolerates a topic another process created in between.
        if ((await admin.listTopics()).includes(topic)) return;
        await admin.createTopics({
          waitForLeaders: true,
          topics: [
            {
              topic,
              numPartitions: this.options.partitions ?? 3,
              replicationFactor: this.options.replicationFactor ?? -1,
            },
          ],
        });
      });
      // A failed attempt is retried by the next call instead of being cached.
      pending.catch(() => this.topics.delete(topic));
      this.topics.set(topic, pending);
    }
    return pending;
  }

  private connectedProducer(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      return producer;
    })();
    return this.producer;
  }

  private connectedAdmin(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })();
    return this.admin;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.producer) await (await this.producer).disconnect();
    if (this.admin) await (await this.admin).disconnect();
    this.producer = this.admin = null;
  }
}

function consumed(topic: string, partition: number, message: KafkaMessage): ConsumedMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    value: message.value?.toString('utf8') ?? '',
    headers: decodeHeaders(message.headers),
  };
}

function decodeHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value)
      ? String(value[0])
      : Buffer.isBuffer(value)
        ? value.toString('utf8')
        : String(value);
  }
  return out;
}

/** kafkajs logs through our logger, so its warnings carry the same shape and redaction as ours. */
function logToPino({ namespace, level, log }: LogEntry): void {
  const { message, ...extra } = log;
  const fields = { component: 'kafkajs', namespace, ...extra };
  if (level === logLevel.ERROR) logger.error(fields, message);
  else if (level === logLevel.WARN) logger.warn(fields, message);
  else logger.debug(fields, message);
}
