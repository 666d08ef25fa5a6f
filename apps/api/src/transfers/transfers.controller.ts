import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { domainError } from '@app/domain';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { CancelTransferCommand, CreateTransferCommand, GetTransferQuery } from '@app/application/transfers';
import { ListTransfersQuery as ListTransfers } from '@app/read-models/transfers/list-transfers.query';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import { CancelTransferDto, CreateTransferDto, ListTransfersQuery, TransferScopeQuery } from './transfers.dto';
import { AsOf } from '../audit/as-of.interceptor';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

/** The two creation routes answer alike: one body, one set of answers. */
const CREATE_TRANSFER_ANSWERS = {
  ok: { status: 201, schema: 'Transfer', description: 'The transfer, pending' },
  errors: {
    403: 'Another entity’s account, with an entity token (forbidden)',
    404: 'No such account or payment details (account_not_found, payment_detail_not_found)',
    409: {
      description:
        'A transfer with this unique_reference exists for the account (duplicate_unique_reference): the original transfer',
      schema: 'DuplicateTransferError',
    },
    422: 'A field is missing or invalid (validation_error: transfer creation answers 422, as the spec says), insufficient available balance (insufficient_funds), an inactive counterparty (counterparty_inactive), payment details of another method or currency (payment_method_mismatch, currency_mismatch)',
  },
} as const;

@ApiTags('Transfers')
@Controller()
export class TransfersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Bank and mobile-money transfers in the spec; every payment type here (decisions §6). */
  @Post('transfer')
  @ApiRoute({
    id: 'createTransfer',
    summary: 'Create a transfer (payout)',
    description:
      'Bank and mobile-money transfers in the spec; every payment type here. Holds amount + fee at once; moves asynchronously (outflows.* webhooks).',
    ...CREATE_TRANSFER_ANSWERS,
  })
  createOne(@Ctx() ctx: CommandContext, @Body() body: CreateTransferDto) {
    return this.create(ctx, body);
  }

  /** Stablecoin transfers in the spec; every payment type here. */
  @Post('transfers')
  @ApiRoute({
    id: 'createTransfers',
    summary: 'Create a transfer (stablecoin in the spec)',
    description: 'The same as POST /transfer: every payment type.',
    ...CREATE_TRANSFER_ANSWERS,
  })
  createMany(@Ctx() ctx: CommandContext, @Body() body: CreateTransferDto) {
    return this.create(ctx, body);
  }

  @Get('transfers')
  @ApiRoute({
    id: 'listTransfers',
    summary: 'List transfers of an entity',
    ok: { status: 200, schema: styleAList(ref('Transfer')), description: 'Transfers, newest first' },
    errors: {
      400: 'entity_id missing with an API key, or a bad filter (validation_error)',
      403: 'Another entity’s (forbidden)',
    },
    readModel: true,
  })
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
  @ApiRoute({
    id: 'getTransfer',
    summary: 'Retrieve a transfer',
    ok: { status: 200, schema: 'Transfer', description: 'The transfer' },
    errors: {
      400: 'entity_id missing with an API key, or a malformed as_of (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such transfer of the entity, or none yet at as_of (transfer_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: TransferScopeQuery) {
    return presentTransfer(
      await this.queries.execute(new GetTransferQuery(ctx.actor, id, entityScope(ctx.actor, query.entity_id))),
    );
  }

  /** Takes back a pending payout (decisions §14); answers once its hold is released, so the balance shows it (§2). */
  @Post('transfers/:id/cancel')
  @HttpCode(200)
  @ApiRoute({
    id: 'cancelTransfer',
    summary: 'Cancel a pending transfer',
    description:
      'Only a pending payout: its hold is released (available gets amount + fee back, nothing is posted, no fee taken); fires outflows.cancelled.',
    ok: { status: 200, schema: 'Transfer', description: 'The transfer, cancelled' },
    errors: {
      400: 'entity_id missing with an API key, or a reason not 1-100 characters (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such transfer of the entity (transfer_not_found)',
      409: 'The transfer is not pending (processing or ended), or is a book transfer (invalid_state): unchanged',
    },
  })
  async cancel(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CancelTransferDto) {
    return presentTransfer(
      await this.commands.execute(
        new CancelTransferCommand(ctx, id, entityScope(ctx.actor, body.entity_id), body.reason ?? null),
      ),
    );
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
    domainError(
      'conflict',
      'duplicate_unique_reference',
      `A transfer with unique_reference "${transfer.unique_reference}" already exists for this account`,
      {
        errors: [{ field: 'unique_reference', message: 'already used on this account' }],
        details: { ...fields, transfer },
      },
    ),
  );
}
