import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Response } from 'express';
import { domainError } from '@app/domain';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { AuthorizationRelays } from '@app/webhook-delivery/card-authorization/relays';
import { ApiKeyOnly, Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { SseResponse } from '../http/sse-response';
import { ApiRoute } from '../openapi/api-route.decorator';
import { bool, constant, dataEnvelope, obj, str } from '@app/read-models/schema-dsl';

/** The endpoint's answers are bounded as deliveries' responses are kept (64 KiB). */
const MAX_ANSWER = 65_536;
/** A comment this often keeps proxies and listen's watchdog from taking the quiet relay for a dead one. */
export const RELAY_HEARTBEAT_MS = 15_000;

export class RelayAnswerDto {
  @ApiProperty({
    type: 'integer',
    minimum: 100,
    maximum: 599,
    description: 'The HTTP status the local endpoint answered',
  })
  @IsInt({ message: 'status must be an HTTP status' })
  @Min(100)
  @Max(599)
  status!: number;
  @ApiProperty({ maxLength: MAX_ANSWER, description: 'The body the local endpoint answered, as text' })
  @IsString()
  @MaxLength(MAX_ANSWER)
  body!: string;
}

export class RelayQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'true',
    description: 'false: end right after `ready` (a script checking its key may relay)',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'follow must be true or false' })
  follow?: string;
}

/**
 * Decisions §16 on a laptop (`npm run listen`, as `stripe listen` relays Issuing's requests): a
 * sandbox API key holds `GET /sandbox/card-authorization-relay` open, receives each of its
 * organization's sandbox `card_authorizations.request` as an event (the body the endpoint would
 * have been POSTed), and posts its local endpoint's answer back; that answer decides as the
 * endpoint's would (libs/webhook-delivery/src/card-authorization/relays.ts).
 */
@ApiTags('Cards')
@Controller('sandbox/card-authorization-relay')
@ApiKeyOnly()
@SandboxOnly()
export class AuthorizationRelayController implements BeforeApplicationShutdown {
  private readonly open = new Set<SseResponse>();

  constructor(private readonly relays: AuthorizationRelays) {}

  @Get()
  @ApiRoute({
    id: 'sandboxRelayCardAuthorizations',
    summary: 'Sandbox: receive card authorization requests to answer (npm run listen)',
    description:
      'Server-Sent Events: `ready`, then one `card_authorizations.request` per sandbox authorization of the organization to decide, its data `{id, payload}` (payload: the exact body the endpoint would have been POSTed). While open, these are sent here instead of to the entity’s endpoint (decisions §16).',
    ok: { status: 200, mediaType: 'text/event-stream', description: 'The stream' },
  })
  async relay(@Ctx() { actor }: CommandContext, @Query() q: RelayQueryDto, @Res() res: Response): Promise<void> {
    const client = new SseResponse(res);
    await client.open(
      0,
      {
        object: 'card_authorization_relay',
        organization_id: actor.organizationId,
        mode: actor.mode,
        heartbeat_ms: RELAY_HEARTBEAT_MS,
      },
      RELAY_HEARTBEAT_MS,
    );
    if (q.follow === 'false') return client.end();
    this.open.add(client);
    const close = this.relays.open(actor.organizationId, (request) =>
      client.message({ event: 'card_authorizations.request', data: request }),
    );
    try {
      await client.closed;
    } finally {
      close();
      this.open.delete(client);
      client.end();
    }
  }

  @Post(':id')
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxAnswerCardAuthorization',
    summary: 'Sandbox: the local endpoint’s answer to a relayed card authorization request',
    ok: {
      status: 200,
      schema: dataEnvelope(
        obj({
          object: constant('card_authorization_relay_answer'),
          id: str('The request’s evt_… id'),
          received: bool('Always true'),
        }),
      ),
      description: 'Received in time: it decides',
    },
    errors: {
      409: 'No request of the organization waits under this id: answered after the timeout, already answered, or unknown (relay_request_not_waiting)',
    },
  })
  answer(@Ctx() { actor }: CommandContext, @Param('id') id: string, @Body() body: RelayAnswerDto) {
    if (!this.relays.answer(actor.organizationId, id, { status: body.status, body: body.body })) {
      // Not a 404: the id names no resource, only a wait that may be over (the fallback then decided).
      throw new DomainException(
        domainError(
          'conflict',
          'relay_request_not_waiting',
          `No card authorization request ${id} waits for an answer (answered after the timeout, already answered, or unknown)`,
        ),
      );
    }
    return { data: { object: 'card_authorization_relay_answer', id, received: true } };
  }

  /** The HTTP server closes only once every response ended: the relays end first (listen reconnects). */
  beforeApplicationShutdown(): void {
    for (const client of this.open) client.end();
    this.open.clear();
  }
}
