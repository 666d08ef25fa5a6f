import { exitOnStartupFailure, runLogReader } from '@app/platform/log-reader/log-reader-process';

/**
 * `npm run start:publisher`: forwards the log to the bus (topic payments.domain-events, keyed by
 * stream) from its checkpoint. One replica: two would each publish everything (consumers dedupe
 * on event id, so it is safe, only wasteful).
 */
runLogReader('publisher', { projector: false, publisher: true }).catch(exitOnStartupFailure);
