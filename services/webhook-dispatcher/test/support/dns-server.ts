import { createSocket, type RemoteInfo } from 'node:dgram';

export interface DnsServer {
  /** `127.0.0.1:port`, as WEBHOOK_DNS_SERVERS takes it. */
  address: string;
  /** The names asked so far, one entry per question (A and AAAA each count). */
  questions: string[];
  /** Answers the questions held for stalled names (NXDOMAIN), and every later one, so lookups end now. */
  release(): void;
  close(): Promise<void>;
}

/** The question's name and the offset just past its type and class, or undefined for a malformed query. */
function questionOf(query: Buffer): { name: string; end: number } | undefined {
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length) {
    const length = query[offset]!;
    if (length === 0) return { name: labels.join('.').toLowerCase(), end: offset + 5 };
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += 1 + length;
  }
  return undefined;
}

/**
 * A DNS server over UDP on 127.0.0.1 that answers A queries for `addresses`' names with their IPv4 address,
 * holds the questions about `stalled` names unanswered until release(), and answers NXDOMAIN otherwise (and no
 * AAAA record for any name).
 */
export async function startDnsServer(options: {
  addresses: Readonly<Record<string, string>>;
  stalled: readonly string[];
}): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  const held: { query: Buffer; from: RemoteInfo }[] = [];
  let released = false;
  const answer = (query: Buffer, from: RemoteInfo, question: { name: string; end: number }) => {
    const type = query.readUInt16BE(question.end - 4);
    const address = options.addresses[question.name];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // A response, recursion desired and available; NXDOMAIN for an unknown name.
    header.writeUInt16BE(address === undefined ? 0x8183 : 0x8180, 2);
    header.writeUInt16BE(1, 4);
    const answers = address !== undefined && type === 1 ? [aRecord(address)] : [];
    header.writeUInt16BE(answers.length, 6);
    socket.send(
      Buffer.concat([header, query.subarray(12, question.end), ...answers]),
      from.port,
      from.address,
    );
  };
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const question = questionOf(query);
    if (question === undefined) return;
    questions.push(question.name);
    if (options.stalled.includes(question.name) && !released) held.push({ query, from });
    else answer(query, from, question);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    release() {
      released = true;
      for (const { query, from } of held.splice(0)) answer(query, from, questionOf(query)!);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** An A record for the question's name (a pointer to offset 12), with a one-minute TTL. */
function aRecord(address: string): Buffer {
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(1, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((part, index) => record.writeUInt8(Number(part), 12 + index));
  return record;
}
