/** What a scan of a JSON text found that JSON.parse would let through: a key twice in one object, or nesting past the bound. */
export type JsonScanFinding = { readonly kind: 'duplicate_key'; readonly key: string; readonly path: string } | { readonly kind: 'too_deep' } | null;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** One open object (its keys so far) or array (its current index). */
interface Level {
  readonly keys: Set<string> | null;
  key: string;
  index: number;
}

/**
 * One pass over the bytes of a UTF-8 JSON text, before JSON.parse builds the value (decisions §2):
 * JSON.parse keeps the last of two equal keys, so `{"amount":100,…,"amount":5}` would be read as
 * 5 here and as 100 by a proxy or signature check that reads the first. It tracks only the open
 * objects' keys and the depth, so it costs one byte loop and one string per key: no value is
 * built. Keys are compared as JSON.parse decodes them (`"\u0061"` is `"a"`). On a malformed text
 * it finds nothing, or a duplicate before the flaw, and JSON.parse then refuses the text; so a
 * scan never accepts what the parser would refuse.
 */
export function scanJson(text: Buffer, maxDepth: number): JsonScanFinding {
  const levels: Level[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      let end = i + 1;
      let escaped = false;
      for (; end < text.length && text[end] !== QUOTE; end++) {
        if (text[end] === BACKSLASH) {
          escaped = true;
          end++;
        }
      }
      if (end >= text.length) return null;
      if (expectKey) {
        const level = levels[levels.length - 1];
        const key = decodeKey(text, i, end, escaped);
        if (key === null) return null;
        if (level.keys!.has(key)) return { kind: 'duplicate_key', key, path: pathOf(levels, key) };
        level.keys!.add(key);
        level.key = key;
        expectKey = false;
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (levels.length >= maxDepth) return { kind: 'too_deep' };
      levels.push({ keys: byte === OPEN_OBJECT ? new Set() : null, key: '', index: 0 });
      expectKey = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      levels.pop();
      expectKey = false;
    } else if (byte === COMMA) {
      const level = levels[levels.length - 1];
      if (level && !level.keys) level.index++;
      expectKey = Boolean(level?.keys);
    }
  }
  return null;
}

/** The key of the string between the quotes at `open` and `close`, as JSON.parse reads it; null if it is not valid JSON text. */
function decodeKey(text: Buffer, open: number, close: number, escaped: boolean): string | null {
  const raw = text.toString('utf8', open, close + 1);
  if (!escaped) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return null;
  }
}

/** `a[1].b`: where the repeated key sits, for the error's field. */
function pathOf(levels: readonly Level[], key: string): string {
  let path = '';
  for (const [depth, level] of levels.entries()) {
    const last = depth === levels.length - 1;
    if (level.keys) path += last ? (path ? `.${key}` : key) : path ? `.${level.key}` : level.key;
    else path += `[${level.index}]`;
  }
  return path;
}
