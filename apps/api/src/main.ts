import { createApiWithWorker } from './background/api-with-worker';
import { exitOnStartupFailure, serve } from './serve';

/** `npm start`: the API, and beside it one worker with every role (projector, publisher, webhooks, process managers), supervised. */
serve((config) => createApiWithWorker(config)).catch(exitOnStartupFailure);
