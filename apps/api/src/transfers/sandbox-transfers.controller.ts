import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { CommandContext } from '@app/application/command-handling';
import { CommandBus } from '@nestjs/cqrs';
import { AdvanceTransferCommand } from '@app/application/transfers';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import { AdvanceTransferDto } from './transfers.dto';

@Controller('sandbox/transfers')
export class SandboxTransfersController {
  constructor(private readonly commands: CommandBus) {}

  /** Moves one transfer deterministically; a move the lifecycle does not allow answers 409 (decisions §6). */
  @Post(':id/advance')
  @SandboxOnly()
  @HttpCode(200)
  async advance(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: AdvanceTransferDto) {
    return presentTransfer(await this.commands.execute(new AdvanceTransferCommand(ctx, id, body.to, body.status_reason ?? null)));
  }
}
