import { Command } from '@nestjs/cqrs';
import type { DocumentKey, DocumentRecord } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export interface DocumentUpload {
  readonly key: DocumentKey;
  /** `link_to_identity[person_id]`; inferred from an entity token when absent. */
  readonly personId: string | undefined;
  readonly bytes: Buffer;
  readonly filename: string | null;
}

export class UploadDocumentCommand extends Command<DocumentRecord> {
  constructor(
    readonly context: CommandContext,
    readonly upload: DocumentUpload,
  ) {
    super();
  }
}
