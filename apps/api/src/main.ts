import { createAllInOne } from './background/all-in-one';
import { exitOnStartupFailure, serve } from './serve';

/** `npm start`: the API, with the projector, publisher, webhook worker and process managers beside it. */
serve((config) => createAllInOne(config)).catch(exitOnStartupFailure);
