import { createApi } from './app.factory';
import { exitOnStartupFailure, serve } from './serve';

/**
 * `npm run start:api`: the HTTP API alone, for a deployment of several replicas. Read models are
 * built by `start:projector` and the bus is fed by `start:publisher`; lists answer from the
 * shared read store. Every replica starts the process managers; each manager's lease in the shared
 * store decides which one works, and the others take over if it stops or dies.
 */
serve((config) => createApi(config, { projector: false, publisher: false })).catch(exitOnStartupFailure);
