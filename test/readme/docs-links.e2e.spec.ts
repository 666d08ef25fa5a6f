import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * Every relative link of the repository's Markdown resolves: the file or folder exists, and an
 * anchor names a heading of the target (GitHub's slugs). The docs move often; a link that points
 * at nothing is what a newcomer hits first. Code blocks are skipped (their brackets are code).
 */
const ROOT = join(__dirname, '..', '..');

const withoutCode = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The relative links of one Markdown file (relative to ROOT) that resolve to nothing. */
export function brokenLinks(
  file: string,
  markdown: string,
  read = (path: string) => readFileSync(join(ROOT, path), 'utf8'),
  exists = (path: string) => existsSync(join(ROOT, path)),
): string[] {
  const broken: string[] = [];
  for (const [, link] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [path, anchor] = link.split('#');
    const target = path ? normalize(join(dirname(file), path)) : file;
    if (!exists(target)) broken.push(`${file}: ${link} (no ${target})`);
    else if (anchor && target.endsWith('.md') && !headingAnchors(target === file ? markdown : read(target)).has(anchor))
      broken.push(`${file}: ${link} (no heading #${anchor})`);
  }
  return broken;
}

describe('links in the docs', () => {
  it('finds a missing file, a missing heading, and accepts what exists', () => {
    const files: Record<string, string> = { 'docs/a.md': '# Title\n## The ledger (decisions §12)\n', 'README.md': '' };
    const doc =
      '[ok](docs/a.md#the-ledger-decisions-12) [self](#readme) [web](https://x.io) [gone](docs/b.md) [anchor](docs/a.md#nope)\n\n```\n[code](nowhere.md)\n```\n# Readme\n';
    expect(
      brokenLinks(
        'README.md',
        doc,
        (p) => files[p],
        (p) => p in files,
      ),
    ).toEqual(['README.md: docs/b.md (no docs/b.md)', 'README.md: docs/a.md#nope (no heading #nope)']);
  });

  it('every relative link of every committed Markdown file resolves', () => {
    const files = execFileSync('git', ['ls-files', '*.md', ':!:**/node_modules/**'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(files).toContain('README.md');
    expect(files.flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });
});
