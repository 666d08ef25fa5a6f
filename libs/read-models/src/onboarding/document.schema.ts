import { constant, int, ms, obj, oneOfValues, str, type Infer } from '../schema-dsl';

/** The document resource: the OpenAPI component `Document`, and the type its presenter returns. */
export const documentSchema = obj({
  id: str('doc_…'),
  object: constant('document'),
  key: oneOfValues(['identity', 'address']),
  person_id: str(),
  content_type: oneOfValues(['application/pdf', 'image/jpeg', 'image/png']),
  size: int('Bytes'),
  status: constant('uploaded'),
  created: ms(),
});

export type DocumentBody = Infer<typeof documentSchema>;
