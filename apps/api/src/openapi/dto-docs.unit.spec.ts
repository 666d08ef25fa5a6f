import 'reflect-metadata';
import { getMetadataStorage, type ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
// Every controller, so every DTO class is defined (and registered with class-validator).
import '../app.module';

/** @nestjs/swagger's metadata keys (its dist/constants.ts DECORATORS, not exported by the package). */
const DECORATORS = {
  API_MODEL_PROPERTIES: 'swagger/apiModelProperties',
  API_MODEL_PROPERTIES_ARRAY: 'swagger/apiModelPropertiesArray',
};

type Target = abstract new (...args: never[]) => unknown;
const CONDITIONAL: (typeof ValidationTypes)['CONDITIONAL_VALIDATION'] = 'conditionalValidation';

/** Every class the validation pipe validates (only apps/api uses class-validator), with its own validated properties. */
function validatedClasses(): Map<Target, Map<string, ValidationMetadata[]>> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Target, ValidationMetadata[]> };
  const out = new Map<Target, Map<string, ValidationMetadata[]>>();
  for (const [target, metadatas] of storage.validationMetadatas) {
    const props = new Map<string, ValidationMetadata[]>();
    for (const m of metadatas) props.set(m.propertyName, [...(props.get(m.propertyName) ?? []), m]);
    out.set(target, props);
  }
  return out;
}

/** Optional for the validator: some condition (IsOptional, ValidateIf) skips the property when it is absent. */
const optional = (metadatas: ValidationMetadata[]) =>
  metadatas.some(
    (m) =>
      m.type === CONDITIONAL &&
      (m.constraints as Array<(o: object, v: unknown) => boolean>).some((condition) => !condition({}, undefined)),
  );

const documented = (target: Target, property: string): { required?: boolean } | undefined =>
  Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, target.prototype as object, property);

/**
 * The request side of the OpenAPI document is the DTOs' @ApiProperty decorators, written beside
 * the class-validator rules the pipe applies: this keeps the two from drifting. Every validated
 * field is documented, with the same required-ness, and nothing is documented that is not validated.
 */
describe('DTO documentation (OpenAPI request schemas)', () => {
  const classes = validatedClasses();

  it('finds the DTOs', () => {
    expect(classes.size).toBeGreaterThan(60);
  });

  it('documents every validated field of every DTO, required exactly when the validator requires it', () => {
    const problems: string[] = [];
    for (const [target, props] of classes) {
      for (const [property, metadatas] of props) {
        const doc = documented(target, property);
        if (!doc) problems.push(`${target.name}.${property}: validated, but has no @ApiProperty`);
        else if ((doc.required !== false) === optional(metadatas))
          problems.push(
            `${target.name}.${property}: ${optional(metadatas) ? 'optional' : 'required'} for the validator, ${doc.required !== false ? 'required' : 'optional'} in the document`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents no field the validator does not know (the whitelist would refuse it)', () => {
    const problems: string[] = [];
    for (const target of classes.keys()) {
      const names: string[] = (
        Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, target.prototype as object) ?? []
      ).map((n: string) => n.replace(/^:/, ''));
      const validated = new Set<string>();
      for (let t: Target | null = target; t && t !== Object; t = Object.getPrototypeOf(t) as Target | null)
        for (const p of classes.get(t)?.keys() ?? []) validated.add(p);
      for (const name of names)
        if (!validated.has(name)) problems.push(`${target.name}.${name}: documented, but not validated`);
    }
    expect(problems).toEqual([]);
  });
});
