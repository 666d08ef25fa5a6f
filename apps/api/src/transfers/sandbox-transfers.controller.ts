import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { CommandContext } from '@app/application/command-handling';
import { CommandBus } from '@nestjs/cqrs';
import { AdvanceTransferCommand } from '@app/application/transfers';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import { AdvanceTransferDto } from './transfers.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

@ApiTags('Transfers')
@Controller('sandbox/transfers')
export class SandboxTransfersController {
  constructor(private readonly commands: CommandBus) {}

  /** Moves one transfer deterministically; a move the lifecycle does not allow answers 409 (decisions §6). */
  @Post(':id/advance')
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxAdvanceTransfer',
    summary: 'Sandbox: move a transfer',
    description:
      'pending → processing → successful | failed; successful → reversed. Answers once the money effects are applied.',
    ok: { status: 200, schema: 'Transfer', description: 'The transfer after the move' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such transfer (transfer_not_found)',
      409: 'A move the lifecycle does not allow (invalid_transition, book_transfer_not_reversible)',
    },
  })
  async advance(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: AdvanceTransferDto) {
    return presentTransfer(
      await this.commands.execute(new AdvanceTransferCommand(ctx, id, body.to, body.status_reason ?? null)),
    );
  }
}
