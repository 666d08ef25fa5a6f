import { ACCEPTS_METADATA, DEFAULT_BODY_KINDS, type BodyKind } from './media-types';

/** What the route table knows about one request line. */
export type Resolution =
  /** No route has this path: Nest answers 404. */
  | { readonly kind: 'unknown' }
  /** A route serves this method on this path, taking these bodies. */
  | { readonly kind: 'route'; readonly accepts: readonly BodyKind[] }
  /** Routes have this path, but none serves this method: `allow` lists the methods they serve. */
  | { readonly kind: 'other_methods'; readonly allow: string };

/** The parts of an Express 5 router layer (package `router` 2.x) the table reads. */
interface RouterLayer {
  readonly route?: {
    readonly path: unknown;
    readonly stack: ReadonlyArray<{ readonly method?: string; readonly handle: object }>;
  };
  readonly matchers?: ReadonlyArray<(path: string) => unknown>;
}

interface Entry {
  /** Its place in the router: where two routes match, Express takes the earlier. */
  readonly order: number;
  /** Express's own matcher of the route's path: case, trailing slash and parameters as it routes them. */
  readonly matches: (path: string) => boolean;
  /** Upper-case method → the bodies its handler takes; `*` for a route of every method (`@All`). */
  readonly methods: ReadonlyMap<string, readonly BodyKind[]>;
}

const UNKNOWN: Resolution = { kind: 'unknown' };
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Every route the app serves, read from the Express router once Nest has registered them
 * (so never a list kept by hand), with the bodies each handler takes (@Accepts). It answers, for
 * a method and a path, whether a route serves them, or which methods the path has (405 `Allow`).
 */
export class RouteTable {
  /** Routes by their first path segment (lower case), and those whose first segment is not literal. */
  private readonly byFirstSegment = new Map<string, Entry[]>();
  private readonly anyFirstSegment: Entry[] = [];

  private constructor(layers: readonly RouterLayer[]) {
    for (const [order, layer] of layers.entries()) {
      if (!layer.route) continue;
      if (!Array.isArray(layer.matchers))
        throw new Error(
          'Express router layers have no `matchers`: the route table (apps/api/src/http/route-table.ts) needs updating',
        );
      const matchers = layer.matchers;
      const methods = new Map<string, readonly BodyKind[]>();
      for (const { method, handle } of layer.route.stack) {
        const accepts = (Reflect.getMetadata(ACCEPTS_METADATA, handle) as BodyKind[] | undefined) ?? DEFAULT_BODY_KINDS;
        const name = method ? method.toUpperCase() : '*';
        if (!methods.has(name)) methods.set(name, accepts);
      }
      const entry: Entry = { order, matches: (path) => matchers.some((match) => match(path) !== false), methods };
      const first = typeof layer.route.path === 'string' ? layer.route.path.split('/')[1] : undefined;
      if (first !== undefined && LITERAL_SEGMENT.test(first)) this.bucket(first.toLowerCase()).push(entry);
      else this.anyFirstSegment.push(entry);
    }
  }

  /** Reads the table of an Express app: after `app.init()`, when every route is registered. Its user holds it (body-parsing.middleware.ts). */
  static read(app: object): RouteTable {
    const router = (app as { router?: { stack?: RouterLayer[] } }).router;
    if (!Array.isArray(router?.stack))
      throw new Error('The Express app has no router stack to build the route table from');
    return new RouteTable(router.stack);
  }

  resolve(method: string, path: string): Resolution {
    const candidates = [
      ...(this.byFirstSegment.get(path.split('/')[1]?.toLowerCase() ?? '') ?? []),
      ...this.anyFirstSegment,
    ];
    const matching = candidates.filter((entry) => entry.matches(path)).sort((a, b) => a.order - b.order);
    if (!matching.length) return UNKNOWN;
    const wanted = method.toUpperCase();
    // Express serves HEAD with the GET handler when no route has HEAD itself.
    for (const name of wanted === 'HEAD' ? ['HEAD', 'GET', '*'] : [wanted, '*']) {
      for (const entry of matching) {
        const accepts = entry.methods.get(name);
        if (accepts) return { kind: 'route', accepts };
      }
    }
    const allow = new Set(matching.flatMap((entry) => [...entry.methods.keys()]));
    if (allow.has('GET')) allow.add('HEAD');
    allow.add('OPTIONS');
    return { kind: 'other_methods', allow: [...allow].join(', ') };
  }

  private bucket(segment: string): Entry[] {
    let entries = this.byFirstSegment.get(segment);
    if (!entries) this.byFirstSegment.set(segment, (entries = []));
    return entries;
  }
}
