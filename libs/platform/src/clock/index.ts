export { CLOCK, systemClock, type Clock } from './clock';
export { TestClock, clockReading } from './test-clock';
export { sleep } from './sleep';
