import type { DocumentRecord } from '@app/domain/onboarding';

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

const SIGNATURES: readonly { type: DocumentRecord['content_type']; bytes: readonly number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/**
 * The type the bytes really are, judged by their signature: a client's file name and
 * Content-Type are not trusted, since a renamed executable would pass both.
 */
export function sniffDocumentType(bytes: Buffer): DocumentRecord['content_type'] | null {
  const match = SIGNATURES.find((s) => bytes.length > s.bytes.length && s.bytes.every((b, i) => bytes[i] === b));
  return match?.type ?? null;
}
