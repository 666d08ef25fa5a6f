/**
 * The architecture rules dependency-cruiser cannot check, read with the TypeScript compiler
 * (syntax trees and name resolution, so comments, string contents and locals never count):
 *
 * - what a controller takes from the application: dependency-cruiser sees files, and a context's
 *   barrel (`@app/application/accounts`) exports its handlers next to its commands, so the test
 *   follows every imported name through barrels and re-exports to the file that declares it;
 * - which globals the domain reads: `process`, `crypto`, `performance` and the clock;
 * - who reads the clock: outside the domain, only the injected Clock (libs/platform/src/clock).
 * Both parse our own sources only (see sourcesProgram): a scan takes a second or two.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const REPO = join(__dirname, '..', '..');

/** Every `.ts` file under `dir` whose path relative to `dir` passes `keep`, sorted. */
export function tsFiles(dir: string, keep: (path: string) => boolean = () => true): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => p.endsWith('.ts') && keep(p.split('\\').join('/')))
    .sort()
    .map((p) => join(dir, p));
}

const where = (sf: ts.SourceFile, node: ts.Node) =>
  `${relative(REPO, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;

// ---------------------------------------------------------------------------------------------
// controllers-through-buses
// ---------------------------------------------------------------------------------------------

/** One name a controller imports from a library, followed to the file that declares it. */
export interface ControllerImport {
  /** `file:line` of the import in the controller (repository-relative). */
  readonly at: string;
  /** The name as exported (the local name when it is a namespace or default import). */
  readonly name: string;
  /** The declaring file, repository-relative. */
  readonly declaredIn: string;
  /** Imported with `import type` / `type X`, or declares no value (interface, type alias). */
  readonly typeOnly: boolean;
  /** A namespace import (`import * as x`): the whole module. */
  readonly namespace: boolean;
}

/**
 * Why a controller may not import `i`, or null when it may. The rule (docs/architecture.md,
 * "Use cases"): a controller reaches the application through the CommandBus and the QueryBus only,
 * so from the libraries it takes
 * - from `libs/application`: anything a `*.command.ts` or `*.query.ts` module exports (command and
 *   query classes, their input and result types); `DomainException` (the error the envelope filter
 *   renders: an HTTP refusal looks like a domain one); and types (interfaces, type aliases or
 *   `import type`, e.g. `CommandContext`), except from a handler or a process manager. No other
 *   value: no handler, process manager, service, port or helper that would run application code
 *   beside the buses.
 * - from `libs/platform`: nothing, not even a type. Event store, read store, bus, config and their
 *   injection tokens reach a controller only through a handler.
 * - from `libs/read-models`: list queries and presenters, never a `*.query-handler.ts` (the list
 *   handlers are the QueryBus's to run).
 * Imports are checked where they are declared, so a barrel or a local re-export hides nothing.
 */
export function controllerImportVerdict(i: ControllerImport): string | null {
  const p = i.declaredIn;
  if (/(^|\/)libs\/platform\//.test(p)) return 'from the platform';
  if (/(^|\/)libs\/read-models\//.test(p)) return /\.query-handler\.ts$/.test(p) ? 'a list query handler' : null;
  if (!/(^|\/)libs\/application\//.test(p)) return null;
  if (/\.handler\.ts$/.test(p)) return 'from a command or query handler';
  if (/\.process-managers?\.ts$|(^|\/)process-managers\//.test(p)) return 'from a process manager';
  if (/\.(command|query)\.ts$/.test(p)) return null;
  if (i.namespace) return 'a whole application module';
  if (i.name === 'DomainException' && /(^|\/)command-handling\/domain-exception\.ts$/.test(p)) return null;
  if (i.typeOnly) return null;
  return 'a value that is not a command, query or DomainException';
}

/**
 * A program over `files` that parses the project's own sources only: what node_modules declares
 * is never a library of ours, so package files are read as empty modules (seconds saved per run).
 */
function sourcesProgram(files: string[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(REPO, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.json does not parse');
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, noLib: true, types: [] };
  const host = ts.createCompilerHost(options, true);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, target, ...rest) =>
    /[\\/]node_modules[\\/]/.test(fileName)
      ? ts.createSourceFile(fileName, 'export {};', target)
      : read(fileName, target, ...rest);
  return ts.createProgram({ rootNames: files, options, host });
}

/** Every name each of `controllers` imports (or re-exports) from a file of ours, resolved to its declaration. */
export function controllerImports(controllers: string[]): ControllerImport[] {
  const program = sourcesProgram(controllers);
  const checker = program.getTypeChecker();
  const found: ControllerImport[] = [];
  for (const file of controllers) {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`${file} is not in the program`);
    const declaration = (symbol: ts.Symbol | undefined) => {
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const decl = target?.declarations?.[0];
      return target && decl
        ? { file: decl.getSourceFile().fileName, value: (target.flags & ts.SymbolFlags.Value) !== 0 }
        : null;
    };
    const add = (node: ts.Node, name: string, symbol: ts.Symbol | undefined, typeOnly: boolean, namespace = false) => {
      const d = declaration(symbol);
      if (d && !/[\\/]node_modules[\\/]/.test(d.file)) {
        found.push({
          at: where(sf, node),
          name,
          declaredIn: relative(REPO, d.file),
          typeOnly: typeOnly || !d.value,
          namespace,
        });
      }
    };
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && st.importClause) {
        const clause = st.importClause;
        if (clause.name) add(st, clause.name.text, checker.getSymbolAtLocation(clause.name), clause.isTypeOnly);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) {
          add(st, bindings.name.text, checker.getSymbolAtLocation(st.moduleSpecifier), clause.isTypeOnly, true);
        } else if (bindings) {
          for (const el of bindings.elements)
            add(
              st,
              (el.propertyName ?? el.name).text,
              checker.getSymbolAtLocation(el.name),
              clause.isTypeOnly || el.isTypeOnly,
            );
        }
      } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
        if (!st.exportClause || ts.isNamespaceExport(st.exportClause)) {
          add(st, '*', checker.getSymbolAtLocation(st.moduleSpecifier), st.isTypeOnly, true);
        } else {
          for (const el of st.exportClause.elements)
            add(
              st,
              (el.propertyName ?? el.name).text,
              checker.getExportSpecifierLocalTargetSymbol(el),
              st.isTypeOnly || el.isTypeOnly,
            );
        }
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// domain-reads-no-process-or-clock
// ---------------------------------------------------------------------------------------------

/** Globals the domain never references: the process, randomness and the time (time comes in commands). */
const FORBIDDEN_GLOBALS = new Set(['process', 'crypto', 'performance']);

/** Whether `id` is a reference in code: not a property name after a dot, nor a name being declared. */
function isReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (
    (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) &&
    (ts.isPropertyAccessExpression(parent) ? parent.name : parent.right) === id
  )
    return false;
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false;
  if ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) && parent.propertyName === id) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true; // `{ process }` reads it
  const named = parent as ts.Node & { name?: ts.Node };
  if (
    named.name === id &&
    (ts.isDeclarationStatement(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isBindingElement(parent) ||
      ts.isObjectLiteralElement(parent) ||
      ts.isClassElement(parent) ||
      ts.isTypeElement(parent) ||
      ts.isEnumMember(parent) ||
      ts.isPropertyAccessExpression(parent))
  )
    return false;
  return !ts.isLabeledStatement(parent) && !ts.isBreakOrContinueStatement(parent);
}

/**
 * `file:line: what` for each reference in `files` to the global `process`, `crypto` or `performance`,
 * or to the clock (`Date.now`, `new Date()`, `Date()`). Names are resolved in scope (by the
 * checker, in a program that declares no global), so a local that happens to be called `crypto`
 * is not the global.
 */
export function processOrClockReads(files: string[]): string[] {
  return globalReads(files, FORBIDDEN_GLOBALS);
}

/**
 * no-clock-outside-the-clock: `file:line: what` for each read of the machine's clock in `files`
 * (`Date.now`, `new Date()`, `Date()`, `globalThis.Date`), resolved in scope as above. A Date made
 * of a given time (`new Date(ms)`) is not a read, nor is `performance.now()`: durations a process
 * measures of itself (metrics, timeouts) are measurement, not the time of day.
 */
export function clockReads(files: string[]): string[] {
  return globalReads(files, new Set());
}

/** References in `files` to the globals in `forbidden` and to the clock. */
function globalReads(files: string[], forbidden: ReadonlySet<string>): string[] {
  const program = sourcesProgram(files);
  const checker = program.getTypeChecker();
  /** Declared nowhere in our sources: a global (lib and @types are not in the program). */
  const isGlobal = (id: ts.Identifier) => {
    const symbol = ts.isShorthandPropertyAssignment(id.parent)
      ? checker.getShorthandAssignmentValueSymbol(id.parent)
      : checker.getSymbolAtLocation(id);
    return !symbol?.declarations?.length;
  };
  const isGlobalDate = (e: ts.Expression) => ts.isIdentifier(e) && e.text === 'Date' && isGlobal(e);
  const found: string[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && forbidden.has(node.text) && isReference(node) && isGlobal(node)) {
        found.push(`${where(sf, node)}: ${node.text}`);
      } else if (ts.isPropertyAccessExpression(node) && isGlobalDate(node.expression) && node.name.text === 'now') {
        found.push(`${where(sf, node)}: Date.now`);
      } else if (ts.isNewExpression(node) && isGlobalDate(node.expression) && !node.arguments?.length) {
        found.push(`${where(sf, node)}: new Date()`);
      } else if (ts.isCallExpression(node) && isGlobalDate(node.expression)) {
        found.push(`${where(sf, node)}: Date()`);
      } else if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        /^(globalThis|global)$/.test(node.expression.text) &&
        (forbidden.has(node.name.text) || node.name.text === 'Date')
      ) {
        found.push(`${where(sf, node)}: ${node.expression.text}.${node.name.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}
