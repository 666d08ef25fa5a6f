import { exitOnStartupFailure, runLogReader } from '@app/platform/log-reader/log-reader-process';
import { READ_MODELS } from '@app/read-models/read-models';

/** `npm run start:projector`: builds every read model of read-models.ts from its checkpoint. */
runLogReader('projector', { projector: true, publisher: false }, READ_MODELS).catch(exitOnStartupFailure);
