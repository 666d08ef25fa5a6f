import { Controller, Get, Param } from '@nestjs/common';
import { Matches } from 'class-validator';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { bankCodesFor, SUPPORTED_BANK_CODE_COUNTRIES } from '@app/platform/bank-codes';
import { ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/** The country of the path, refused by the one validation pipe unless it is two letters. */
class BankCodesParams {
  // The route's @ApiParam writes the path parameter; this keeps the DTO's rule and its documentation together.
  @ApiProperty({ type: 'string', maxLength: 2, description: 'ISO 3166-1 alpha-2 (NG, GH, KE, ZA, US, GB, IN…)' })
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code: two letters' })
  country: string;
}

@ApiTags('Counterparties')
@Controller('bank-codes')
export class BankCodesController {
  /** Malformed (not two letters) → 400 validation envelope; well-formed but unshipped → 404 (decisions §5). */
  @Get(':country')
  @ApiParam({
    name: 'country',
    description: 'ISO 3166-1 alpha-2 (NG, GH, KE, ZA, US, GB, IN…)',
    schema: { type: 'string', maxLength: 2 },
  })
  @ApiRoute({
    id: 'listBankCodes',
    summary: 'Bank codes of a country',
    ok: { status: 200, schema: 'BankCodes', description: 'The banks' },
    errors: { 400: 'Not two letters (validation_error)', 404: 'No bank codes for the country (country_not_supported)' },
  })
  list(@Param() params: BankCodesParams) {
    const country = params.country.toUpperCase();
    const banks = bankCodesFor(country);
    if (!banks) {
      throw new DomainException(
        domainError(
          'not_found',
          'country_not_supported',
          `No bank codes for ${country}; supported: ${SUPPORTED_BANK_CODE_COUNTRIES.join(', ')}`,
        ),
      );
    }
    return { status: 'success', message: `${banks.length} banks in ${country}`, data: banks };
  }
}
