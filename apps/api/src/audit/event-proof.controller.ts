import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { GetEventProofQuery } from '@app/application/audit/get-event-proof/get-event-proof.query';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';

/**
 * `GET /events/{id}/proof` (issue 23; docs/decisions/audit.md, "Signed checkpoints"): the
 * inclusion proof of one of the caller's events in the latest signed checkpoint. API key only, the
 * key's organization and mode only, as GET /events.
 */
@Controller()
@ApiKeyOnly()
export class EventProofController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events/:id/proof')
  proof(@Ctx() { actor }: CommandContext, @Param('id') id: string) {
    return this.queries.execute(new GetEventProofQuery(actor, id));
  }
}
