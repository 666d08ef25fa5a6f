/**
 * tests-wait-for-conditions (issue 32): a test never asserts on a duration nor races a timer. On
 * a busy machine every duration grows, so a test that compares one with a bound, or that gives a
 * condition a fixed number of short sleeps, fails where nothing is wrong and is learned to be
 * re-run. A test waits for a condition (test/support/wait-for.ts, with a bound there only so a
 * hung test says what it waited for); how fast something is, is measured in bench/.
 *
 * Read from the syntax tree of each file (comments and strings never count), three shapes:
 * - `clock comparison`: `expect(…)` of a clock read (`Date.now()`, `performance.now()`,
 *   `process.hrtime`) or of an elapsed time (a difference with a clock read or with a name holding
 *   one, or a name or property assigned such a difference), or an ordering matcher
 *   (`toBeLessThan`…, `toBeCloseTo`) given one;
 * - `timer race`: `Promise.race` over a `setTimeout`;
 * - `fixed sleeps`: a `for` loop bounded by a number literal whose body sleeps (`setTimeout`, `sleep(…)`)
 *   other than inside a loop of its own (which waits for that loop's condition).
 * A timestamp alone (`const sent = Date.now()`, compared with a stored expiry) is not a duration;
 * two of them subtracted are (`end - start`, `arrivals[1] - arrivals[0]` of a list pushed clock readings).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const REPO = join(__dirname, '..', '..');
const ORDERING = new Set([
  'toBeLessThan',
  'toBeLessThanOrEqual',
  'toBeGreaterThan',
  'toBeGreaterThanOrEqual',
  'toBeCloseTo',
]);

/** `Date.now()`, `performance.now()`, `process.hrtime(…)`, `process.hrtime.bigint()`. */
function isClockRead(node: ts.Node): boolean {
  if (!ts.isCallExpression(node)) return false;
  const text = node.expression.getText();
  return /^(Date|performance)\.now$/.test(text) || /^process\.hrtime(\.bigint)?$/.test(text);
}

/** Whether `node` or anything under it passes `test`, not looking into what `skip` accepts. */
function contains(node: ts.Node, test: (n: ts.Node) => boolean, skip: (n: ts.Node) => boolean = () => false): boolean {
  return (
    test(node) ||
    (!skip(node) && (ts.forEachChild(node, (child) => (contains(child, test, skip) ? true : undefined)) ?? false))
  );
}

/** A call other than a clock read: what it is given is its input (`store.due(Date.now())`), not what is compared. */
const isOtherCall = (n: ts.Node) => ts.isCallExpression(n) && !isClockRead(n);
/** `setTimeout`, or a call of a `sleep` or `delay` helper. */
const isSleep = (n: ts.Node) =>
  (ts.isIdentifier(n) && n.text === 'setTimeout') ||
  (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && /^(sleep|delay)$/.test(n.expression.text));
/** A loop: a sleep inside one nested in the scanned loop waits for that loop's condition. */
const isLoop = (n: ts.Node) => ts.isIterationStatement(n, false);

/** The name a declaration or assignment gives its value: `x` of `const x =`, `ms` of `{ ms: … }`, `x` of `x =` / `this.x =`. */
function nameOf(node: ts.Node): string | null {
  if ((ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) && ts.isIdentifier(node.name))
    return node.name.text;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = node.left;
    if (ts.isIdentifier(left)) return left.text;
    if (ts.isPropertyAccessExpression(left)) return left.name.text;
  }
  return null;
}

function valueOf(node: ts.Node): ts.Expression | undefined {
  if (ts.isVariableDeclaration(node)) return node.initializer;
  if (ts.isPropertyAssignment(node)) return node.initializer;
  if (ts.isBinaryExpression(node)) return node.right;
  return undefined;
}

/** `file:line: what` for each place in `files` where a test compares a wall-clock time or races a timer. */
export function wallClockComparisons(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const at = (node: ts.Node) =>
      `${relative(REPO, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;

    // Names holding a clock read (timestamps), then names holding a difference with one (durations), to a fixed point.
    const timestamps = new Set<string>();
    const durations = new Set<string>();
    const isTimestampName = (n: ts.Node) =>
      (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) &&
      timestamps.has(ts.isIdentifier(n) ? n.text : n.name.text);
    const isDurationName = (n: ts.Node) =>
      (ts.isIdentifier(n) && durations.has(n.text)) || (ts.isPropertyAccessExpression(n) && durations.has(n.name.text));
    // Time between two readings of the clock (`Date.now() - started`), not a time shifted by a constant (`sent - 5 * HOUR`).
    const isElapsed = (n: ts.Node) =>
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.MinusToken &&
      [n.left, n.right].every((side) => contains(side, (x) => isClockRead(x) || isTimestampName(x)));
    const timed = (n: ts.Node) => contains(n, (x) => isClockRead(x) || isElapsed(x) || isDurationName(x), isOtherCall);
    for (let size = -1; size !== timestamps.size + durations.size;) {
      size = timestamps.size + durations.size;
      const visit = (node: ts.Node): void => {
        // `arrivals.push(Date.now())`: a list of clock readings.
        const pushed =
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          node.expression.name.text === 'push' &&
          node.arguments.some((a) => contains(a, isClockRead));
        if (pushed) {
          const list = (node.expression as ts.PropertyAccessExpression).expression;
          if (ts.isIdentifier(list)) timestamps.add(list.text);
        }
        const name = nameOf(node);
        const value = valueOf(node);
        if (name && value) {
          if (contains(value, isElapsed) || contains(value, isDurationName)) durations.add(name);
          else if (contains(value, isClockRead)) timestamps.add(name);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }

    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'expect' &&
        node.arguments.some(timed)
      ) {
        found.push(`${at(node)}: clock comparison`);
      } else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ORDERING.has(node.expression.name.text) &&
        node.arguments.some(timed)
      ) {
        found.push(`${at(node)}: clock comparison`);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.getText() === 'Promise.race' &&
        contains(node, (x) => ts.isIdentifier(x) && x.text === 'setTimeout')
      ) {
        found.push(`${at(node)}: timer race`);
      } else if (
        ts.isForStatement(node) &&
        node.condition &&
        contains(
          node.condition,
          (x) =>
            ts.isBinaryExpression(x) &&
            [ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken].includes(x.operatorToken.kind) &&
            ts.isNumericLiteral(x.right),
        ) &&
        contains(node.statement, isSleep, isLoop)
      ) {
        found.push(`${at(node)}: fixed sleeps`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}
