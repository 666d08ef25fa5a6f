import type { DocumentRecord } from '@app/domain/onboarding';
import type { DocumentBody } from './document.schema';

/** The document resource: its metadata only; the bytes are never served back. */
export const presentDocument = (d: DocumentRecord): DocumentBody => ({
  id: d.document_id,
  object: 'document',
  key: d.key,
  person_id: d.person_id,
  content_type: d.content_type,
  size: d.size,
  status: 'uploaded',
  created: d.uploaded,
});
