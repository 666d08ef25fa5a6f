import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  domainError,
  entityDecider,
  invalid,
  isDomainError,
  type DocumentRecord,
  type EntityCommand,
} from '@app/domain';
import { BLOB_STORE, type BlobStore } from '@app/platform/blob-store';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand, loadAggregate } from '../../command-handling';
import { sniffDocumentType } from '../file-type';
import { entityStream } from '../streams';
import { documentPerson } from './document-person';
import { UploadDocumentCommand } from './upload-document.command';

@CommandHandler(UploadDocumentCommand)
export class UploadDocumentHandler implements ICommandHandler<UploadDocumentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Checks everything first, then makes the bytes durable, then appends the event: a refused
   * upload writes nothing, and an event never points at a file that is not on disk.
   */
  async execute({ context, upload }: UploadDocumentCommand): Promise<DocumentRecord> {
    const { personId, entityId } = documentPerson(context.actor, upload.personId);
    const content_type = sniffDocumentType(upload.bytes);
    if (!content_type)
      throw new DomainException(invalid('file', 'the file must be a PDF, JPEG or PNG (judged by its content)'));
    const loaded = await loadAggregate(this.store, entityStream(entityId), entityDecider, context);
    if (!loaded)
      throw new DomainException(domainError('not_found', 'person_not_found', `No person with id ${personId}`));
    const document_id = `doc_${ulid()}`;
    const uploaded = this.clock.now();
    const record = (sha256: string): DocumentRecord => ({
      document_id,
      key: upload.key,
      person_id: personId,
      content_type,
      size: upload.bytes.length,
      sha256,
      filename: upload.filename,
      uploaded,
    });
    const command = (sha256: string): EntityCommand => ({
      type: 'UploadDocument',
      entity_id: entityId,
      document: record(sha256),
    });
    const refused = entityDecider.decide(command(''), loaded.state);
    if (isDomainError(refused)) throw new DomainException(refused);
    const blob = await this.blobs.put(`${context.actor.organizationId}/${document_id}`, upload.bytes);
    await handleCommand(this.store, entityStream(entityId), entityDecider, command(blob.sha256), context);
    return record(blob.sha256);
  }
}
