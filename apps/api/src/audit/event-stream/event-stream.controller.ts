import { ApiHeader, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Headers, Logger, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, Matches } from 'class-validator';
import type { Response } from 'express';
import { domainError } from '@app/domain';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import {
  StreamEventsQuery,
  type EventStream,
  type EventStreamSink,
  type StreamStart,
} from '@app/webhook-delivery/event-stream/stream-events.query';
import { ApiKeyOnly, Ctx } from '../../http/auth/auth.decorators';
import { EventStreamSettings, OpenEventStreams } from './open-event-streams';
import { SseResponse } from '../../http/sse-response';
import { bearerCredential } from './key-watch';
import { ApiRoute } from '../../openapi/api-route.decorator';

const POSITION = /^\d{1,16}$/;

export class EventStreamDto {
  @ApiPropertyOptional({ pattern: '^\\d{1,16}$', description: 'Start after this log position (as Last-Event-ID)' })
  @IsOptional()
  @Matches(POSITION, { message: 'after_position must be a non-negative integer' })
  after_position?: string;
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'true',
    description: 'false: end at the head of the log as it was when the stream opened',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'follow must be true or false' })
  follow?: string;
}

/**
 * `GET /events/stream` (docs/decisions/infrastructure.md, "Dashboard and listen"): the public
 * events of the key's organization and mode as Server-Sent Events, each `data` the webhook
 * delivery body of decisions §9 and `event` its name, in log order, as they are appended. API key
 * only. Resumable: each `id:` is a log position, sent back as `Last-Event-ID` (or
 * `?after_position=`); without either the stream starts at the head of the log. `follow=false`
 * ends it at the head of the log as it was when it opened.
 */
@ApiTags('Audit')
@Controller('events')
@ApiKeyOnly()
export class EventStreamController {
  private readonly log = new Logger('EventStream');

  constructor(
    private readonly queries: QueryBus,
    private readonly streams: OpenEventStreams,
    private readonly settings: EventStreamSettings,
  ) {}

  @Get('stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this log position (the id of the last event received)',
    schema: { type: 'string', pattern: '^\\d{1,16}$' },
  })
  @ApiRoute({
    id: 'streamEvents',
    summary: 'The organization’s events as they happen (Server-Sent Events)',
    description:
      'Each event’s data is the webhook delivery body and its id a log position; resumable with Last-Event-ID.',
    ok: { status: 200, mediaType: 'text/event-stream', description: 'The stream' },
    errors: {
      429: {
        description:
          'Over EVENT_STREAMS_PER_KEY open streams of the key (rate_limited, limit_type event_streams), with Retry-After',
        schema: 'RateLimitError',
      },
    },
  })
  async stream(
    @Ctx() { actor }: CommandContext,
    @Query() q: EventStreamDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const start = startOf(lastEventId, q.after_position);
    const follow = q.follow !== 'false';
    const client = new SseResponse(res);
    const heartbeatMs = this.settings.heartbeatMs;
    const key = this.streams.watchKey(bearerCredential(res.req.headers.authorization), actor.id);
    let stream: EventStream | null = null;
    // The response first: a write waiting on a client that does not read must not hold the stream's stop.
    const stop = async () => {
      key.stop();
      client.end();
      await stream?.stop();
    };
    let unregister: () => void;
    try {
      unregister = this.streams.add(actor.id, stop);
    } catch (error) {
      res.setHeader('Retry-After', String((error as DomainException).error.details?.retry_after ?? 1));
      throw error;
    }
    let keyLost!: () => void;
    const lost = new Promise<void>((resolve) => (keyLost = resolve));
    const sink: EventStreamSink = {
      opened: (after: number) =>
        client.open(
          after,
          {
            object: 'event_stream',
            organization_id: actor.organizationId,
            mode: actor.mode,
            after_position: after,
            follow,
            heartbeat_ms: heartbeatMs,
          },
          heartbeatMs,
        ),
      // The key is asked once per batch and the batch written without awaiting in between, so nothing is sent once it is gone.
      events: async (batch) => {
        if (!(await key.valid())) return (keyLost(), false);
        await client.messages(
          batch.map(({ body, position, last }) => ({ id: last ? position : undefined, event: body.event, data: body })),
        );
        return true;
      },
      progress: (position: number) => client.progress(position),
    };
    try {
      // Before the first byte an error is an ordinary answer (the envelope); after it, the stream says so and ends.
      try {
        stream = await this.queries.execute(new StreamEventsQuery(actor, start, follow, sink));
      } catch (error) {
        if (!res.headersSent) throw error;
        return await this.failed(client, actor.organizationId, error);
      }
      key.poll(this.settings.keyCheckMs, keyLost);
      await Promise.race([stream.ended, client.closed, lost]);
      // A revoked or rotated key's stream just ends: nothing more is sent on it, not even why.
      if (!follow && !client.gone && (await key.valid()))
        await client.message({ event: 'end', data: { object: 'event_stream', reason: 'caught_up' } });
    } catch (error) {
      await this.failed(client, actor.organizationId, error);
    } finally {
      unregister();
      await stop();
    }
  }

  /** The status line is gone: the stream says it failed, in the envelope's shape, and ends (the client resumes). */
  private async failed(client: SseResponse, organizationId: string, error: unknown): Promise<void> {
    this.log.warn(`event stream of ${organizationId} failed: ${(error as Error).message}`);
    await client.message({
      event: 'error',
      data: {
        status: 'error',
        code: 'stream_failed',
        message: 'The event stream stopped; reconnect with Last-Event-ID to resume',
        errors: [],
      },
    });
    client.end();
  }
}

/** `Last-Event-ID` (a reconnection) wins over `after_position`; neither: the head of the log. */
function startOf(lastEventId: string | undefined, afterPosition: string | undefined): StreamStart {
  if (lastEventId !== undefined) {
    if (!POSITION.test(lastEventId)) {
      const message = 'Last-Event-ID must be the id of an event of this stream (a log position)';
      throw new DomainException(
        domainError('validation', 'validation_error', message, { errors: [{ field: 'Last-Event-ID', message }] }),
      );
    }
    return { after: Number(lastEventId) };
  }
  return afterPosition === undefined ? 'head' : { after: Number(afterPosition) };
}
