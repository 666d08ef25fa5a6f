import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { domainError, type FieldError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/**
 * Strict validation: unknown fields are refused, every failing field is named with its path
 * (`profile.address.line1`), and the answer is 400 `validation_error`, or `status` for routes
 * whose spec says otherwise (transfer creation answers 422).
 */
export function strictValidationPipe(kind: 'validation' | 'rule' = 'validation') {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const first = fields[0];
      return new DomainException(domainError(kind, 'validation_error', first ? `${first.field}: ${first.message}` : 'Invalid request', { errors: fields }));
    },
  });
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      message: constraint === 'whitelistValidation' ? `${field} is not an accepted field` : message.replace(error.property, field),
    }));
    return [...own.slice(0, 1), ...flatten(error.children ?? [], field)];
  });
}
