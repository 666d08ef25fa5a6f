/** What a scan of a JSON text found that JSON.parse would let through: a key twice in one object, or nesting past the bound. */
export type JsonScanFinding =
  | { readonly kind: 'duplicate_key'; readonly key: string; readonly path: string }
  | { readonly kind: 'too_deep' }
  | null;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** Past this many keys an object's keys go in a Set; below it an array's linear search is cheaper. */
const SMALL_OBJECT = 16;
/** Past this many bytes a string's end is searched natively (Buffer#indexOf); below it a loop is cheaper than the call. */
const SHORT_STRING = 32;

/** The open containers, innermost last: an object's keys so far (null for an array), its last key, an array's index. */
interface Levels {
  keys: Array<string[] | Set<string> | null>;
  last: string[];
  index: number[];
  depth: number;
}

/**
 * One pass over the bytes of a UTF-8 JSON text, before JSON.parse builds the value (decisions §2):
 * JSON.parse keeps the last of two equal keys, so `{"amount":100,…,"amount":5}` would be read as 5
 * here and as 100 by a proxy or a signature check that reads the first. It builds no value: it
 * tracks the open objects' keys and the depth, skipping strings' contents natively. Keys are
 * compared as JSON.parse decodes them (`"\u0061"` is `"a"`). On a malformed text it finds nothing,
 * or a duplicate before the flaw, and JSON.parse then refuses the text: a scan never accepts what
 * the parser would refuse. bench/json-scan.js prints what it costs per body.
 */
export function scanJson(text: Buffer, maxDepth: number): JsonScanFinding {
  const levels: Levels = { keys: [], last: [], index: [], depth: 0 };
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      const end = expectKey ? readKey(text, i, levels) : closingQuote(text, i + 1);
      if (typeof end !== 'number') return end;
      i = end;
      expectKey = false;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (levels.depth >= maxDepth) return { kind: 'too_deep' };
      levels.keys[levels.depth] = byte === OPEN_OBJECT ? [] : null;
      levels.index[levels.depth++] = 0;
      expectKey = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      levels.depth = Math.max(0, levels.depth - 1);
      expectKey = false;
    } else if (byte === COMMA && levels.depth > 0) {
      expectKey = levels.keys[levels.depth - 1] !== null;
      if (!expectKey) levels.index[levels.depth - 1]++;
    }
  }
  return null;
}

/** Reads the key whose opening quote is at `open` into the innermost object: its closing quote, a duplicate, or null if the text ends first. */
function readKey(text: Buffer, open: number, levels: Levels): number | JsonScanFinding {
  let key = '';
  let plain = true;
  let end = open + 1;
  for (; end < text.length && text[end] !== QUOTE; end++) {
    if (text[end] === BACKSLASH || text[end] >= 0x80) {
      plain = false;
      if (text[end] === BACKSLASH) end++;
    } else if (plain) key += String.fromCharCode(text[end]);
  }
  if (end >= text.length) return null;
  if (!plain) {
    // Escapes and multi-byte characters: the key as JSON.parse reads it (invalid UTF-8 as U+FFFD, as body-parser decodes it).
    try {
      key = JSON.parse(text.toString('utf8', open, end + 1)) as string;
    } catch {
      return null;
    }
  }
  const depth = levels.depth - 1;
  const keys = levels.keys[depth]!;
  if (Array.isArray(keys) ? keys.includes(key) : keys.has(key))
    return { kind: 'duplicate_key', key, path: pathOf(levels, key) };
  if (Array.isArray(keys)) {
    keys.push(key);
    if (keys.length > SMALL_OBJECT) levels.keys[depth] = new Set(keys);
  } else keys.add(key);
  levels.last[depth] = key;
  return end;
}

/** The closing quote of a string whose contents start at `from`, or null if the text ends first. */
function closingQuote(text: Buffer, from: number): number | null {
  const short = Math.min(text.length, from + SHORT_STRING);
  for (let end = from; end < short; end++) {
    if (text[end] === QUOTE) return end;
    if (text[end] === BACKSLASH) end++;
  }
  for (let end = text.indexOf(QUOTE, from); end !== -1; end = text.indexOf(QUOTE, end + 1)) {
    let backslashes = 0;
    while (text[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
  return null;
}

/** `a[1].b`: where the repeated key sits, for the error's field. */
function pathOf(levels: Levels, key: string): string {
  let path = '';
  for (let depth = 0; depth < levels.depth; depth++) {
    const name = depth === levels.depth - 1 ? key : levels.last[depth];
    if (levels.keys[depth] === null) path += `[${levels.index[depth]}]`;
    else path += path ? `.${name}` : name;
  }
  return path;
}
