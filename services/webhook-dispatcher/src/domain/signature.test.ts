import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signatureHeader } from './signature';

/**
 * The signatures every receiver checks, shared with the SDK's verification tests (packages/node): the two
 * sides read the same file, so what Sika signs and what its library accepts cannot drift apart.
 */
const VECTORS = JSON.parse(
  readFileSync(
    path.join(__dirname, '../../../../packages/node/test-vectors/webhook-signatures.json'),
    'utf8',
  ),
) as {
  signatures: { name: string; secrets: string[]; timestamp: number; payload: string; header: string }[];
};

describe('signatureHeader', () => {
  it.each(VECTORS.signatures.map((vector) => [vector.name, vector] as const))(
    'signs as the shared vector says: %s',
    (_name, { secrets, timestamp, payload, header }) => {
      // Within the second, as deliveries are: the header carries whole seconds.
      expect(signatureHeader(secrets, payload, new Date(timestamp * 1000 + 900))).toBe(header);
    },
  );
});
