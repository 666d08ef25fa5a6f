import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { GetEventProofQuery } from '@app/application/audit/get-event-proof/get-event-proof.query';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/**
 * `GET /events/{id}/proof` (issue 23; docs/decisions/audit.md, "Signed checkpoints"): the
 * inclusion proof of one of the caller's events in the latest signed checkpoint. API key only, the
 * key's organization and mode only, as GET /events.
 */
@ApiTags('Audit')
@Controller()
@ApiKeyOnly()
export class EventProofController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events/:id/proof')
  @ApiRoute({
    id: 'getEventProof',
    summary: 'An event’s inclusion proof in the latest signed checkpoint',
    description: 'All an auditor needs to check the event offline (examples/verify-proof.mjs).',
    ok: { status: 200, schema: 'EventProof', description: 'The proof' },
    errors: {
      404: 'No such event in the caller’s organization and mode (event_not_found)',
      409: 'Newer than the latest signed checkpoint (event_not_checkpointed): retry shortly',
    },
  })
  proof(@Ctx() { actor }: CommandContext, @Param('id') id: string) {
    return this.queries.execute(new GetEventProofQuery(actor, id));
  }
}
