import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';

import { REPO } from './repo';

type Token = MarkdownIt.Token;

const markdown = new MarkdownIt();

/** Folders that hold no Markdown of the repository's own: dependencies, build output, local state. */
const NOT_SOURCES = new Set(['node_modules', '.git', 'dist', '.sika', 'artifacts', 'coverage', 'generated']);

/** Every Markdown file of the repository, relative to its root. */
export function markdownFiles(folder = REPO): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCES.has(entry.name)) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [path.relative(REPO, full)] : [];
  });
}

/** A parsed Markdown file: its tokens, and each inline token's children flattened after it. */
export function parseMarkdown(file: string): Token[] {
  const tokens = markdown.parse(readFileSync(path.join(REPO, file), 'utf8'), {});
  return tokens.flatMap((token) => [token, ...(token.children ?? [])]);
}

/**
 * The anchor GitHub gives a heading: its text lower-cased, every character but letters, marks, numbers,
 * connector punctuation, spaces and hyphens dropped, spaces turned into hyphens (github-slugger's rule), and a
 * repeated anchor numbered `-1`, `-2` ….
 */
export function headingAnchors(tokens: readonly Token[]): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const text = (tokens[index + 1]?.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline')
      .map((child) => child.content)
      .join('');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  });
  return anchors;
}

/** Every link and image target of a parsed file. */
export function linkTargets(tokens: readonly Token[]): string[] {
  return tokens.flatMap((token) => {
    const target =
      token.type === 'link_open'
        ? token.attrGet('href')
        : token.type === 'image'
          ? token.attrGet('src')
          : null;
    return target === null ? [] : [String(target)];
  });
}

/** Code blocks written as shell, and inline code: where a file shows commands and paths. */
export function codeOf(tokens: readonly Token[]): { blocks: string[]; spans: string[] } {
  const shell = new Set(['sh', 'bash', 'shell', 'console']);
  return {
    blocks: tokens
      .filter((token) => token.type === 'fence' && shell.has(token.info.trim()))
      .map((token) => token.content),
    spans: tokens.filter((token) => token.type === 'code_inline').map((token) => token.content),
  };
}

/**
 * The words of each shell command in `code`: continued lines joined, comments dropped, quotes honoured (a
 * quoted string is one word, over several lines if need be), split at line ends, `&&`, `;`, `$(`, `)` and a
 * `|` between words (`test|live` is one word).
 */
export function shellCommands(code: string): string[][] {
  const text = code.replace(/\\\n/g, ' ');
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const endWord = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\n' || char === ';' || char === ')' || (char === '|' && word === undefined)) {
      endCommand();
    } else if (text.startsWith('&&', index) || text.startsWith('$(', index)) {
      endCommand();
      index += 1;
    } else if (char === '#' && word === undefined) {
      const lineEnd = text.indexOf('\n', index);
      index = (lineEnd === -1 ? text.length : lineEnd) - 1;
    } else if (/\s/.test(char)) endWord();
    else word = (word ?? '') + char;
  }
  endCommand();
  return commands;
}
