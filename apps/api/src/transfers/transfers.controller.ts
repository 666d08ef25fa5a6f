import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { domainError } from '@app/domain';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { CreateTransferCommand, GetTransferQuery } from '@app/application/transfers';
import { ListTransfersQuery as ListTransfers } from '@app/read-models/transfers/list-transfers.query';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { BodyValidatedWith422 } from './transfer-body.pipe';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import { CreateTransferDto, ListTransfersQuery, TransferScopeQuery } from './transfers.dto';
import { AsOf } from '../audit/as-of.interceptor';

/** Declared as an interface so only the 422 pipe validates it (see transfer-body.pipe.ts). */
interface CreateTransferBody extends CreateTransferDto {}

@Controller()
export class TransfersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Bank and mobile-money transfers in the spec; every payment type here (decisions §6). */
  @Post('transfer')
  createOne(@Ctx() ctx: CommandContext, @BodyValidatedWith422(CreateTransferDto) body: CreateTransferBody) {
    return this.create(ctx, body);
  }

  /** Stablecoin transfers in the spec; every payment type here. */
  @Post('transfers')
  createMany(@Ctx() ctx: CommandContext, @BodyValidatedWith422(CreateTransferDto) body: CreateTransferBody) {
    return this.create(ctx, body);
  }

  @Get('transfers')
  async list(@Ctx() ctx: CommandContext, @Query() query: ListTransfersQuery) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      entity_id: entityScope(ctx.actor, query.entity_id),
      account_id: query.account_id,
      status: query.status,
    };
    return styleA(await this.queries.execute(new ListTransfers(filter, styleAQuery(query))), presentTransfer);
  }

  @Get('transfers/:id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: TransferScopeQuery) {
    return presentTransfer(await this.queries.execute(new GetTransferQuery(ctx.actor, id, entityScope(ctx.actor, query.entity_id))));
  }

  /** 201 with the new transfer; a used `unique_reference` answers 409 whose body is the original (decisions §6). */
  private async create(ctx: CommandContext, body: CreateTransferDto) {
    const { transfer, created } = await this.commands.execute(
      new CreateTransferCommand(ctx, {
        account_id: body.account_id,
        payment_detail_id: body.payment_detail_id,
        amount: body.amount,
        payment_type: body.payment_type,
        description: body.description ?? null,
        unique_reference: body.unique_reference,
        metadata: body.metadata ?? {},
      }),
    );
    if (!created) throw duplicateReference(presentTransfer(transfer));
    return presentTransfer(transfer);
  }
}

/**
 * The 409 body is the original transfer (decisions §6) inside the error envelope (decisions §2):
 * every transfer field at the top level except `status`, which the envelope needs ("error"), and
 * the whole transfer, own status included, under `transfer`.
 */
export function duplicateReference(transfer: ReturnType<typeof presentTransfer>): DomainException {
  const { status: _status, ...fields } = transfer;
  return new DomainException(
    domainError('conflict', 'duplicate_unique_reference', `A transfer with unique_reference "${transfer.unique_reference}" already exists for this account`, {
      errors: [{ field: 'unique_reference', message: 'already used on this account' }],
      details: { ...fields, transfer },
    }),
  );
}
