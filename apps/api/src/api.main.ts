import { exitOnStartupFailure, serve } from './serve';

/**
 * `npm run start:api`: the HTTP API alone, for a deployment of several replicas. Read models are
 * built by `start:projector` and the bus is fed by `start:publisher`; lists answer from the
 * shared read store. Process managers (the sandbox KYC review) still run here: their commands are
 * idempotent, so replicas racing on one event change nothing twice.
 */
serve({ projector: false, publisher: false }).catch(exitOnStartupFailure);
