export { CLOCK, systemClock, type Clock } from './clock';
export { TestClock } from './test-clock';
