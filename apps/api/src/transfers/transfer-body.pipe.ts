import { Body, type ArgumentMetadata, type PipeTransform, type Type } from '@nestjs/common';
import { strictValidationPipe } from '../http/validation.pipe';

/**
 * Transfer creation answers validation errors with 422 (spec, Errors), not the usual 400. The
 * global pipe validates every parameter whose declared type is a class and answers 400, and it
 * runs first; so the parameter is declared with an interface (which the global pipe skips) and
 * this pipe validates it as `dto` with the 422 flavour of the same strict rules.
 */
class ValidateAs implements PipeTransform {
  private readonly pipe = strictValidationPipe('rule');
  constructor(private readonly dto: Type<unknown>) {}

  transform(value: unknown, metadata: ArgumentMetadata) {
    return this.pipe.transform(value ?? {}, { ...metadata, metatype: this.dto });
  }
}

export const BodyValidatedWith422 = (dto: Type<unknown>) => Body(new ValidateAs(dto));
