import { ValidationPipe, type ArgumentMetadata, type Type, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { domainError, type FieldError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { requireNonBlankText } from './required-text';

const REFUSED_AS = Symbol('refusedAs');

/**
 * The spec answers a DTO's invalid input with 422 rather than the usual 400 (transfer creation):
 * said on the DTO, so its route keeps the one global pipe and an ordinary @Body().
 */
export const InvalidInputAnswers422 = (): ClassDecorator => (dto) => Reflect.defineMetadata(REFUSED_AS, 'rule', dto);

/** The field errors of one failed validation, before they become the answer of their DTO's kind. */
class InvalidInput {
  constructor(readonly fields: FieldError[]) {}
}

/** Adds the blank-text rule to the DTOs (required-text.ts) before the first validation. */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    requireNonBlankText();
    rememberDtoRules();
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      const first = error.fields[0];
      const kind = refusalKindOf(metadata.metatype);
      throw new DomainException(
        domainError(kind, 'validation_error', first ? `${first.field}: ${first.message}` : 'Invalid request', {
          errors: error.fields,
        }),
      );
    }
  }
}

const refusalKindOf = (dto: Type<unknown> | undefined): 'validation' | 'rule' =>
  (dto && (Reflect.getMetadata(REFUSED_AS, dto) as 'rule' | undefined)) ?? 'validation';

type RulesOf = (target: object, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => unknown[];

/**
 * class-validator looks up a DTO's rules on every validation by filtering its own rules and
 * testing the DTO against every class that has any (`instanceof`, for inherited rules): a tenth
 * of a payout's validation (issue 28). The rules are fixed once the classes are declared, so the
 * lookup is remembered per DTO and options, and forgotten whenever a rule is added (the blank-text
 * rule, required-text.ts, is added on first use). Validation itself, its messages and the
 * OpenAPI the DTOs generate are class-validator's and the DTOs' as before.
 */
let remembering = false;
function rememberDtoRules(): void {
  if (remembering) return;
  remembering = true;
  const storage = getMetadataStorage() as unknown as {
    getTargetValidationMetadatas: RulesOf;
    addValidationMetadata(rule: unknown): void;
    addConstraintMetadata(rule: unknown): void;
  };
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  let rules = new WeakMap<object, Map<string, unknown[]>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Groups are not used by this API's pipes: a call with them is not remembered.
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    const key = `${schema}|${always}|${strictGroups}`;
    let byOptions = rules.get(target);
    if (!byOptions) rules.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookUp(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.addValidationMetadata = (rule) => {
    rules = new WeakMap();
    addRule(rule);
  };
  storage.addConstraintMetadata = (rule) => {
    rules = new WeakMap();
    addConstraint(rule);
  };
}

/**
 * The API's one validation path, global: unknown fields are refused, a missing required field
 * says it is required, blank required text is refused (required-text.ts), every failing field is
 * named with its path (`profile.address.line1`), and the answer is 400 `validation_error`, or 422
 * for a DTO marked @InvalidInputAnswers422 (transfer creation, as the spec says).
 */
export function strictValidationPipe() {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => new InvalidInput(flatten(errors)),
  });
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix
      ? /^\d+$/.test(error.property)
        ? `${prefix}[${error.property}]`
        : `${prefix}.${error.property}`
      : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      message: messageOf(constraint, message, error, field),
    }));
    return [...own.slice(0, 1), ...flatten(error.children ?? [], field)];
  });
}

function messageOf(constraint: string, message: string, error: ValidationError, field: string): string {
  if (constraint === 'whitelistValidation') return `${field} is not an accepted field`;
  // No field is ever undefined in a body or query that sent it (no DTO transforms a value away),
  // so a failing undefined is a missing field: say so, rather than the first rule it broke
  // (`amount must be at most …`), unless the rule's message already says when it is required.
  if (error.value === undefined && !/\brequired\b/.test(message)) return `${field} is required`;
  return message.replace(error.property, field);
}
