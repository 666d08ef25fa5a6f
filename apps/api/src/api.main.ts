import { createApi } from './app.factory';
import { exitOnStartupFailure, serve } from './serve';

/**
 * `npm run start:api`: the HTTP API alone, for a deployment of several replicas beside workers
 * (`npm run start:worker` with WORKER_ROLES per deployment, deploy/). It runs no reader of the log:
 * lists wait for the checkpoints the projector worker stores in the shared read store.
 */
serve((config) => createApi(config)).catch(exitOnStartupFailure);
