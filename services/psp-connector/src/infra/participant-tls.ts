import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';

/** Where a mode's mutual TLS material is mounted, and the variables that named each file (for errors). */
export interface ParticipantTlsFiles {
  certFile: { variable: string; path: string };
  keyFile: { variable: string; path: string };
  caFile: { variable: string; path: string };
}

/**
 * Reads a mode's client certificate, key and participant CA, and refuses to go on with material that cannot
 * work (unreadable, not PEM, a key that is not the certificate's): better a start that fails naming the file
 * than a live mode whose every call fails at the handshake. The error never quotes a file's content.
 */
export function readParticipantTls(files: ParticipantTlsFiles): { cert: string; key: string; ca: string } {
  const read = ({ variable, path }: { variable: string; path: string }) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(
        `${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  };
  const [cert, key, ca] = [read(files.certFile), read(files.keyFile), read(files.caFile)];
  const certificate = parse(files.certFile, () => new X509Certificate(cert), 'a PEM certificate');
  const privateKey = parse(files.keyFile, () => createPrivateKey(key), 'a PEM private key');
  parse(files.caFile, () => new X509Certificate(ca), 'a PEM certificate');
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new Error(
      `${files.keyFile.variable}: not the private key of the certificate of ${files.certFile.variable}`,
    );
  }
  return { cert, key, ca };
}

function parse<T>(file: { variable: string; path: string }, read: () => T, what: string): T {
  try {
    return read();
  } catch {
    throw new Error(`${file.variable}: ${file.path} is not ${what}`);
  }
}

/**
 * The connection pool of one participant, at most `connections` wide. With TLS files, every connection presents
 * Sika's client certificate and trusts the participant's CA only (not the system's), so no other server can
 * pass for the participant.
 */
export function participantAgent(connections: number, files?: ParticipantTlsFiles): Agent {
  if (files === undefined) return new Agent({ connections });
  const { cert, key, ca } = readParticipantTls(files);
  return new Agent({ connections, connect: { cert, key, ca, minVersion: 'TLSv1.2' } });
}
