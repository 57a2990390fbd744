import path from 'node:path';

/**
 * Where the conformance tests (src/conformance.test.ts, psp-connector's live-conformance) find the PI-SPI API Business document, and what it does when it cannot.
 *
 * The document is not in the repository: it carries no licence of its own (its `info` names a contact, not
 * a licence), so Sika does not redistribute it. See "The API Business document" in packages/pispi/README.md.
 * Kept apart from the test so that the decision is unit-tested (conformance-document.test.ts) and never
 * depends on which machine runs it.
 */

/** Names the document explicitly; when set, nothing else is looked at. */
export const DOCUMENT_VARIABLE = 'PISPI_API_BUSINESS_DOCUMENT';

/** Where the document is looked for when the variable is not set, in this order (from the repository root). */
export const DOCUMENT_CANDIDATES: readonly { path: string; what: string }[] = [
  {
    path: '.sika/pispi/api-business.openapi.json',
    what: "this clone's local files, ignored by git and prettier",
  },
  {
    path: '../shared/pispi/api-business.openapi.json',
    what: "beside the clone, where the project's own machines and CI keep it",
  },
];

export type DocumentDecision =
  /** Compare the schemas with the document at `path`. */
  | { kind: 'run'; path: string }
  /** No document and not in CI: skip the comparison, and say why and how to run it. */
  | { kind: 'skip'; reason: string }
  /** CI without the document, or a variable naming a file that does not exist: fail, saying why. */
  | { kind: 'fail'; reason: string };

export interface DocumentLookup {
  env: Readonly<Record<string, string | undefined>>;
  /** Absolute path of the repository root. */
  repositoryRoot: string;
  exists: (file: string) => boolean;
}

/** CI=true as CI systems set it (GitHub, GitLab …), or CI=1. Anything else, or unset, is a developer run. */
export function isCi(env: DocumentLookup['env']): boolean {
  const value = env['CI']?.trim().toLowerCase();
  return value === 'true' || value === '1';
}

const HOW_TO_PROVIDE =
  `Set ${DOCUMENT_VARIABLE} to the path of the PI-SPI "API Business" OpenAPI document ` +
  '(title "PI - API BUSINESS - OpenAPI 3.0", version 1.0.0, published by the BCEAO), or copy it to ' +
  `${DOCUMENT_CANDIDATES[0]?.path}. packages/pispi/README.md says where to get it.`;

export function locateApiBusinessDocument({ env, repositoryRoot, exists }: DocumentLookup): DocumentDecision {
  const named = env[DOCUMENT_VARIABLE]?.trim();
  if (named) {
    const file = path.resolve(repositoryRoot, named);
    if (exists(file)) return { kind: 'run', path: file };
    // A path someone wrote down on purpose is wrong: skipping would hide the mistake, in CI or not.
    return { kind: 'fail', reason: `${DOCUMENT_VARIABLE} names ${file}, which does not exist.` };
  }

  const looked: string[] = [];
  for (const candidate of DOCUMENT_CANDIDATES) {
    const file = path.resolve(repositoryRoot, candidate.path);
    if (exists(file)) return { kind: 'run', path: file };
    looked.push(`${file} (${candidate.what})`);
  }

  const absent = `The PI-SPI API Business document was not found. Looked at: ${looked.join('; ')}.`;
  if (isCi(env)) {
    return {
      kind: 'fail',
      reason: `${absent} CI is set, so the conformance of the PI-SPI schemas cannot be skipped. ${HOW_TO_PROVIDE}`,
    };
  }
  return {
    kind: 'skip',
    reason: `${absent} The conformance tests of the PI-SPI schemas are skipped (they fail under CI=true). ${HOW_TO_PROVIDE}`,
  };
}
