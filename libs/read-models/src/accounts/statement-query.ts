import { Query } from '@nestjs/cqrs';
import type { EventProof } from '@app/application/audit/get-event-proof/get-event-proof.query';
import type { Actor } from '@app/application/command-handling';
import type { SignedCheckpoint } from '@app/platform/audit-checkpoints/checkpoint';
import type { StatementLine } from './statement-month';

/** What a statement says before its lines (decisions §17). */
export interface StatementHead {
  readonly account_id: string;
  readonly currency: string;
  /** ms, from inclusive, to exclusive. */
  readonly period: { readonly from: number; readonly to: number };
}

/** What it says after them, known once every line has gone past. */
export interface StatementSummary {
  readonly opening_balance: number;
  readonly closing_balance: number;
  readonly credits_total: number;
  readonly debits_total: number;
  readonly positions: { readonly first: number | null; readonly last: number | null };
  /** The signed checkpoint covering `positions.last`; null while none does yet, or when the month has no lines. */
  readonly checkpoint: SignedCheckpoint | null;
  /** The inclusion proof of the event at `positions.last` in `checkpoint` (GET /events/{id}/proof's answer). */
  readonly proof: EventProof | null;
}

/**
 * A statement read once, in order: its head, then its lines a page at a time (so CSV and PDF
 * stream a month of any length), then its summary, folded from the lines as they passed.
 */
export interface StatementSource {
  readonly head: StatementHead;
  pages(): AsyncIterable<StatementLine[]>;
  /** Only after `pages()` has been read to its end. */
  summary(): Promise<StatementSummary>;
}

export type Statement = StatementHead & StatementSummary & { readonly lines: StatementLine[] };

/** Reads a whole statement (the JSON answer: the month's lines in one body). */
export async function readStatement(source: StatementSource): Promise<Statement> {
  const lines: StatementLine[] = [];
  for await (const page of source.pages()) lines.push(...page);
  const { opening_balance, closing_balance, credits_total, debits_total, positions, checkpoint, proof } =
    await source.summary();
  return {
    ...source.head,
    opening_balance,
    closing_balance,
    credits_total,
    debits_total,
    lines,
    positions,
    checkpoint,
    proof,
  };
}

/**
 * `GET /accounts/{id}/statements/{YYYY-MM}`: a UTC month of an account visible to the actor, not
 * in the future (400 otherwise; another entity's account 403, an unknown one 404).
 */
export class GetStatementQuery extends Query<StatementSource> {
  constructor(
    readonly actor: Actor,
    readonly accountId: string,
    readonly month: string,
  ) {
    super();
  }
}
