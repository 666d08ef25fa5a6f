import { exitOnStartupFailure, runLogReader } from './log-reader-worker';

/** `npm run start:projector`: builds every read model of read-models.ts from its checkpoint. */
runLogReader('projector', { projector: true, publisher: false }).catch(exitOnStartupFailure);
