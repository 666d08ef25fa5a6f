import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { domainError, entityDecider, invalid, isDomainError, type DocumentKey, type EntityCommand } from '@app/domain';
import { BLOB_STORE, type BlobStore } from '@app/platform/blob-store';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../command-handling';
import { sniffDocumentType } from './file-type';
import { entityIdOfPerson, entityStream, personIdOf } from './streams';

export interface DocumentUpload {
  readonly key: DocumentKey;
  /** `link_to_identity[person_id]`; inferred from an entity token when absent. */
  readonly personId: string | undefined;
  readonly bytes: Buffer;
  readonly filename: string | null;
}

const PERSON_FIELD = 'link_to_identity[person_id]';

@Injectable()
export class DocumentsService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  /**
   * Checks everything first, then makes the bytes durable, then appends the event: a refused
   * upload writes nothing, and an event never points at a file that is not on disk.
   */
  async upload(context: CommandContext, upload: DocumentUpload) {
    const personId = this.personOf(context, upload.personId);
    const contentType = sniffDocumentType(upload.bytes);
    if (!contentType) throw new DomainException(invalid('file', 'the file must be a PDF, JPEG or PNG (judged by its content)'));
    const entityId = entityIdOfPerson(personId)!;
    const loaded = await loadAggregate(this.store, entityStream(entityId), entityDecider, context);
    if (!loaded) throw new DomainException(domainError('not_found', 'person_not_found', `No person with id ${personId}`));
    const documentId = `doc_${ulid()}`;
    const now = Date.now();
    const command = (sha256: string): EntityCommand => ({
      type: 'UploadDocument',
      entity_id: entityId,
      document: { document_id: documentId, key: upload.key, person_id: personId, content_type: contentType, size: upload.bytes.length, sha256, filename: upload.filename, uploaded: now },
    });
    const refused = entityDecider.decide(command(''), loaded.state);
    if (isDomainError(refused)) throw new DomainException(refused);
    const blob = await this.blobs.put(`${context.actor.organizationId}/${documentId}`, upload.bytes);
    await handleCommand(this.store, entityStream(entityId), entityDecider, command(blob.sha256), context);
    return { id: documentId, object: 'document', key: upload.key, person_id: personId, content_type: contentType, size: blob.size, status: 'uploaded', created: now };
  }

  private personOf(context: CommandContext, requested: string | undefined): string {
    const inferred = context.actor.entityId ? personIdOf(context.actor.entityId) : undefined;
    const personId = requested ?? inferred;
    if (!personId) throw new DomainException(invalid(PERSON_FIELD, `${PERSON_FIELD} is required when using an API key`));
    if (!entityIdOfPerson(personId)) throw new DomainException(invalid(PERSON_FIELD, 'must be a person_id (per_…) from entity creation'));
    return personId;
  }
}
