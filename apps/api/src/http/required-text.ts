import { getMetadataStorage, registerDecorator, ValidationTypes } from 'class-validator';

/** The parts of class-validator's ValidationMetadata (not exported from its index) read here. */
interface ValidationMetadata {
  readonly type: string;
  readonly name?: string;
  readonly propertyName: string;
  readonly each: boolean;
}

/** Whether every DTO loaded so far has the rule: the first validation of the process adds it. */
let applied = false;

/**
 * Decisions §2: a required text field that is blank (only white space) is refused, naming the
 * field. Rather than a decorator on each field (one forgotten is one silent blank), the rule is
 * added from the metadata the DTOs already carry: every property that is text (declared `string`,
 * or `@IsString`) and not `@IsOptional` gets an `isNotBlank` constraint, so class-validator
 * applies it with its own conditions (`@ValidateIf`), `each` and nesting. It runs on the first
 * validation, when every controller, and so every DTO, is loaded.
 */
export function requireNonBlankText(): void {
  if (applied) return;
  applied = true;
  // The storage lists its classes only through this private map (class-validator 0.14).
  const byTarget = (
    getMetadataStorage() as unknown as { validationMetadatas: Map<(new () => object) | string, ValidationMetadata[]> }
  ).validationMetadatas;
  for (const [target, metadatas] of [...byTarget.entries()]) {
    if (typeof target !== 'function') continue;
    const properties = new Map<string, ValidationMetadata[]>();
    for (const metadata of metadatas)
      properties.set(metadata.propertyName, [...(properties.get(metadata.propertyName) ?? []), metadata]);
    for (const [propertyName, own] of properties) {
      if (own.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION && m.name === 'isOptional')) continue;
      const isString = own.find((m) => m.name === 'isString');
      const declared: unknown = Reflect.getMetadata('design:type', target.prototype as object, propertyName);
      if (!isString && declared !== String) continue;
      registerDecorator({
        name: 'isNotBlank',
        target,
        propertyName,
        options: { each: isString?.each ?? false, message: '$property must not be blank' },
        validator: { validate: (value: unknown) => typeof value !== 'string' || value.trim() !== '' },
      });
    }
  }
}
