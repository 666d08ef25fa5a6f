/**
 * Folded states as text, for snapshots. A state may hold a persistent structure (a linked list
 * thousands of nodes deep) that JSON.stringify and v8.serialize cannot walk (they recurse). So a
 * state is flattened, without recursion, into a table of shallow nodes: each object or array
 * becomes one row whose members are plain values or `{ r: <row> }` references, and a node reached
 * twice is written once (structural sharing survives). A small node (at most six levels of
 * objects, such as a persistent map's lower nodes with their entries and transfers) is written in
 * place as `{ j: <node> }`: no row, no lookup, so 20,000 open holds cost a few hundred rows.
 * Members that are `undefined` are dropped, as JSON drops them. Row 0 is the root.
 */
type Row = ['o', string[], unknown[]] | ['a', unknown[]];

export function encodeState(state: unknown): string {
  if (state === null || typeof state !== 'object') return JSON.stringify({ value: state ?? null });
  const rows: Row[] = [];
  const seen = new Map<object, number>();
  const ref = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (rows.length > 0 && isSmall(value, SMALL_LEVELS)) return { j: value };
    let index = seen.get(value);
    if (index === undefined) {
      seen.set(value, (index = rows.length));
      rows.push(Array.isArray(value) ? ['a', []] : ['o', [], []]);
      pending.push(value);
    }
    return { r: index };
  };
  const pending: object[] = [];
  ref(state);
  for (let i = 0; i < pending.length; i++) fill(rows[i], pending[i], ref);
  return JSON.stringify({ rows });
}

/**
 * How deep a node written in place may be: a persistent map's node two levels above its entries
 * (slots, node, slots, entry, transfer) is six. Each object is looked at by at most this many
 * ancestors, so the check stays linear.
 */
const SMALL_LEVELS = 6;

/** Whether every member is a plain value or, while `levels` allow, an object of them. */
function isSmall(value: object, levels: number): boolean {
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== null && typeof member === 'object' && (levels === 1 || !isSmall(member, levels - 1))) return false;
  }
  return true;
}

function fill(row: Row, node: object, ref: (value: unknown) => unknown): void {
  if (row[0] === 'a') {
    for (const item of node as unknown[]) row[1].push(item === undefined ? null : ref(item));
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    row[1].push(key);
    row[2].push(ref(value));
  }
}

export function decodeState(text: string): unknown {
  const parsed = JSON.parse(text) as { value?: unknown; rows?: Row[] };
  if (!parsed.rows) return parsed.value;
  const rows = parsed.rows;
  const nodes = rows.map((row) => (row[0] === 'a' ? [] : {})) as Record<string, unknown>[];
  const value = (v: unknown) =>
    v !== null && typeof v === 'object' ? ('j' in v ? v.j : nodes[(v as { r: number }).r]) : v;
  rows.forEach((row, i) => {
    const node = nodes[i];
    if (row[0] === 'a') row[1].forEach((item, j) => (node[j] = value(item)));
    else row[1].forEach((key, j) => (node[key] = value(row[2][j])));
  });
  return nodes[0];
}
