import { ApiPropertyOptional } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';

/**
 * Ids are `<prefix>_<ULID>`, a transfer's followed by its reference key (20 upper-case hex); a
 * cursor is the id of the last item of the previous page.
 */
const CURSOR_SOURCE = '^[a-z]{2,5}_[0-9A-HJKMNP-TV-Z]{26}([0-9A-F]{20})?$';
export const CURSOR_PATTERN = new RegExp(CURSOR_SOURCE);

const LIMIT_MESSAGE = 'limit must be an integer between 1 and 100';

/**
 * A query integer is plain decimal digits only: `Number()` would also take `1e2`, `0x10` or ` 1`
 * (decisions §2), so anything else stays a string and fails IsInt.
 */
export const QueryInteger = () =>
  Transform(({ value }) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value));

/** `limit`: 1-100 (decisions §2); the page size defaults to 20 where it is read. */
export const LimitField = () =>
  applyDecorators(
    IsOptional(),
    QueryInteger(),
    IsInt({ message: LIMIT_MESSAGE }),
    Min(1, { message: LIMIT_MESSAGE }),
    Max(100, { message: LIMIT_MESSAGE }),
  );

/** Style A (decisions §2): `limit` 1-100, default 20, and `cursor`. Extend it with a resource's filters. */
export class StyleAQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Page size: plain decimal digits',
  })
  @LimitField()
  limit?: number;

  @ApiPropertyOptional({
    pattern: CURSOR_SOURCE,
    description: 'meta.pagination.next_cursor of the previous page; omit for the first',
  })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

export function styleAQuery(query: StyleAQuery, filter: PageQuery['filter'] = {}): PageQuery {
  return { filter, limit: query.limit ?? 20, before: query.cursor };
}

export function styleA<D extends { id: string }, R>(page: Page<D>, present: (doc: D) => R) {
  const last = page.items[page.items.length - 1];
  return {
    data: page.items.map(present),
    meta: { pagination: { has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null } },
  };
}

/** Style B (decisions §2): `limit`, `next_cursor` (older) and `prev_cursor` (newer). */
export class StyleBQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Page size: plain decimal digits',
  })
  @LimitField()
  limit?: number;

  @ApiPropertyOptional({
    pattern: CURSOR_SOURCE,
    description: 'pagination.next_cursor of the previous page: older items',
  })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'next_cursor must be a cursor returned by a previous page' })
  next_cursor?: string;

  @ApiPropertyOptional({
    pattern: CURSOR_SOURCE,
    description: 'pagination.prev_cursor of the previous page: newer items',
  })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'prev_cursor must be a cursor returned by a previous page' })
  prev_cursor?: string;
}

export function styleBQuery(
  query: StyleBQuery,
  filter: PageQuery['filter'] = {},
  range?: PageQuery['range'],
): PageQuery {
  return {
    filter,
    range,
    limit: query.limit ?? 20,
    before: query.next_cursor,
    after: query.next_cursor ? undefined : query.prev_cursor,
  };
}

export function styleBPagination<D extends { id: string }>(query: StyleBQuery, page: Page<D>) {
  const backwards = !query.next_cursor && !!query.prev_cursor;
  const hasNext = backwards ? true : page.hasMore;
  const hasPrevious = backwards ? page.hasMore : !!query.next_cursor;
  const first = page.items[0];
  const last = page.items[page.items.length - 1];
  return {
    has_next: hasNext && !!last,
    has_previous: hasPrevious && !!first,
    next_cursor: hasNext && last ? last.id : null,
    prev_cursor: hasPrevious && first ? first.id : null,
  };
}
