import { Body, Controller, Headers, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { domainError } from '@app/domain';
import { RecordInflowCommand } from '@app/application/accounts/record-inflow/record-inflow.command';
import { DomainException } from '@app/application/command-handling';
import { presentInflowTransaction } from '@app/read-models/accounts/inflow.presenter';
import { Public } from '../http/auth/auth.decorators';
import { RecordInflowDto } from './admin-inflows.dto';
import { OperatorGuard } from './operator.guard';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

type InflowTransaction = ReturnType<typeof presentInflowTransaction>;

/**
 * Money received on a rail (decisions §11): the operator records it on an account of any mode; the
 * answer is the account transaction as the statement lists it. Beside AdminController, with the
 * same guard: `Authorization: Bearer $PAYMENTS_ADMIN_TOKEN`, 404 everywhere when unset.
 */
@ApiTags('Operator')
@Controller('admin')
@Public()
@UseGuards(OperatorGuard)
export class AdminInflowsController {
  constructor(private readonly commands: CommandBus) {}

  /** 201 with the credit; a reference already recorded on the account answers 409 with the first. */
  @Post('accounts/:id/inflows')
  @ApiRoute({
    id: 'operatorRecordInflow',
    summary: 'Operator: money received on a rail',
    description: 'Credits the account (any mode); fires inflows.completed.',
    ok: { status: 201, schema: 'AccountTransaction', description: 'The credit, as the statement lists it' },
    errors: {
      409: {
        description: 'The reference was recorded on the account already (duplicate_reference): the first transaction',
        schema: 'DuplicateInflowError',
      },
      422: 'Another currency, a rail the currency does not have, or past the balance bound (currency_mismatch, rail_not_supported, balance_limit_exceeded)',
    },
  })
  async record(@Headers('x-request-id') requestId: string, @Param('id') id: string, @Body() body: RecordInflowDto) {
    const input = {
      amount: body.amount,
      currency: body.currency,
      rail: body.rail,
      reference: body.reference,
      sender: body.sender ?? null,
    };
    const { transaction, created, organization_id, mode } = await this.commands.execute(
      new RecordInflowCommand(requestId, id, input),
    );
    const shown = presentInflowTransaction(transaction, { organization_id, mode });
    if (!created) throw duplicateInflowReference(shown, transaction.reference);
    return shown;
  }
}

/**
 * As a duplicate transfer `unique_reference` (decisions §6): the first transaction's fields at the
 * top level of the error envelope, and the whole transaction under `transaction`.
 */
function duplicateInflowReference(transaction: InflowTransaction, reference: string): DomainException {
  return new DomainException(
    domainError(
      'conflict',
      'duplicate_reference',
      `An inflow with reference "${reference}" was already recorded on this account`,
      {
        errors: [{ field: 'reference', message: 'already recorded on this account' }],
        details: { ...transaction, transaction },
      },
    ),
  );
}
