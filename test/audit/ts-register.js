// The tests' child processes run TypeScript entries without building dist/ through the one
// transpile-only hook the project has (scripts/ts-register.js): see there.
require('../../scripts/ts-register.js');
