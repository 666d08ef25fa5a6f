import { applyDecorators } from '@nestjs/common';
import { Type, type TypeHelpOptions } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, ValidateIf, ValidateNested } from 'class-validator';

type BlockType = (options?: TypeHelpOptions) => new () => object;

export interface BlockOptions {
  /** Absent passes. */
  readonly optional?: boolean;
  /** `null` passes (a PATCH clearing the block). */
  readonly nullable?: boolean;
}

const skipped =
  ({ optional, nullable }: BlockOptions) =>
  (_object: object, value: unknown) =>
    !((optional && value === undefined) || (nullable && value === null));

/**
 * An object block of a body (`bank`, `profile`, `address`…): anything but a JSON object, `null`
 * included unless the block may be cleared, is a 400 naming the field, so the domain only ever
 * sees the shape it was promised (decisions §2).
 */
export const Block = (type: BlockType, options: BlockOptions = {}) =>
  applyDecorators(
    ValidateIf(skipped(options)),
    IsObject({ message: '$property must be an object' }),
    ValidateNested(),
    Type(type),
  );

/** A list of object blocks, at most `max` long. */
export const BlockList = (type: BlockType, max: number, options: BlockOptions = {}) =>
  applyDecorators(
    ValidateIf(skipped(options)),
    IsArray({ message: '$property must be an array' }),
    ArrayMaxSize(max, { message: `$property must hold at most ${max} items` }),
    IsObject({ each: true, message: 'each item of $property must be an object' }),
    ValidateNested({ each: true }),
    Type(type),
  );
